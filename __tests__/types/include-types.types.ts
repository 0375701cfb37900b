// Compile-time checks that `include` is typed in-process (CONTRACT §9): only declared relations, each entry read through
// the related resource's policy, and the rows carry what was included (to-one: the row or null; to-many: an array;
// to-one or to-many from Drizzle's relations()). Each `@ts-expect-error` is a refusal (policy-types.test.ts).
import Database from 'better-sqlite3';
import { relations } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { crud, defineService } from 'tessera-api';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

export const authors = sqliteTable('authors', { id: integer('id').primaryKey(), name: text('name').notNull(), email: text('email') });
export const posts = sqliteTable('posts', { id: integer('id').primaryKey(), authorId: integer('author_id').notNull(), title: text('title').notNull() });
export const tags = sqliteTable('tags', { id: text('id').primaryKey(), postId: integer('post_id').notNull().references(() => posts.id), label: text('label').notNull() });
const postsRelations = relations(posts, ({ one }) => ({ author: one(authors, { fields: [posts.authorId], references: [authors.id] }) }));
const authorsRelations = relations(authors, ({ many }) => ({ posts: many(posts) }));

const db = drizzle(new Database(':memory:'), { schema: { authors, posts, tags, postsRelations, authorsRelations } });
const service = defineService({ name: 'include_types', db });

export const authorsResource = service.resource({ name: 'authors', table: authors, id: authors.id }).use(
  crud({ access: 'public', fields: { id: { read: true, sort: true }, name: { read: true, filter: ['eq'], sort: true }, email: { read: true } } }),
);
// Resources that name each other reach the later one through a function annotated `object`: its types are not reachable.
let tagsRef: object;
export const postsResource = service.resource({ name: 'posts', table: posts, id: posts.id }).use(
  crud({
    access: 'public',
    fields: { id: { read: true, sort: true }, title: { read: true, filter: ['contains'] } },
    relations: { author: { resource: authorsResource, filter: true }, tags: { resource: (): object => tagsRef } },
  }),
);
// tags.post has no Drizzle relation (a foreign key only): the types cannot tell to-one from to-many.
export const tagsResource = service.resource({ name: 'tags', table: tags, id: tags.id }).use(
  crud({ access: 'public', fields: { id: { read: true }, label: { read: true } }, relations: { post: { resource: postsResource } } }),
);
tagsRef = tagsResource;
// authors.posts is to-many (Drizzle's many()); given after posts exists, so its types are reachable.
export const writersResource = defineService({ name: 'include_writers', db })
  .resource({ name: 'authors', table: authors, id: authors.id })
  .use(crud({ access: 'public', fields: { id: { read: true }, name: { read: true } }, relations: { posts: { resource: () => postsResource } } }));

type AuthorRow = { id: number; name: string; email: string | null };

export async function included() {
  const page = await postsResource.list({ input: { include: { author: true } } });
  const narrowed = await postsResource.get({ input: { id: 1, select: ['title'], include: { author: { select: ['name'] } } } });
  const found = await postsResource.findOne({ input: { include: { author: { where: { name: { eq: 'Ann' } } } } } });
  const writers = await writersResource.list({ input: { include: { posts: { orderBy: [{ field: 'id', direction: 'desc' }], limit: 2, include: { author: true } } } } });
  const fallback = await postsResource.list({ input: { include: { tags: { select: ['label'] } } } });
  const either = await tagsResource.get({ input: { id: 't1', include: { post: true } } });
  const plain = await postsResource.list();
  // A relation filter inside an include's where (its inner where is checked at run time, as at the top level).
  const filtered = await writersResource.list({ input: { include: { posts: { where: { author: { is: { name: { eq: 'Ann' } } } } } } } });
  return [
    true as Expect<Equal<(typeof filtered.items)[number]['posts'], { id: number; title: string }[]>>,
    // Naming a resource's rows through its actions' types: the row without includes, not any.
    true as Expect<Equal<Awaited<ReturnType<typeof writersResource.get>>, { id: number; name: string }>>,
    true as Expect<Equal<Awaited<ReturnType<typeof postsResource.list>>['items'][number], { id: number; title: string }>>,
    true as Expect<Equal<NonNullable<Awaited<ReturnType<typeof tagsResource.findOne>>>, { id: string; label: string }>>,
    // to-one: the related row, its own readable fields, or null.
    true as Expect<Equal<(typeof page.items)[number], { id: number; title: string; author: AuthorRow | null }>>,
    true as Expect<Equal<typeof narrowed, { title: string; author: { name: string } | null }>>,
    true as Expect<Equal<typeof found, { id: number; title: string; author: AuthorRow | null } | null>>,
    // to-many: an array, nested includes carried.
    true as Expect<Equal<(typeof writers.items)[number]['posts'], { id: number; title: string; author: AuthorRow | null }[]>>,
    // Related types not reachable: a row by name, its fields unknown.
    true as Expect<Equal<(typeof fallback.items)[number]['tags'], Record<string, unknown> | Record<string, unknown>[] | null>>,
    // A foreign key alone: to-one or to-many, the types cannot tell.
    true as Expect<Equal<typeof either.post, { id: number; title: string } | { id: number; title: string }[] | null>>,
    // Nothing included: the row alone.
    true as Expect<Equal<(typeof plain.items)[number], { id: number; title: string }>>,
    // @ts-expect-error author was not included
    plain.items[0].author,
  ];
}

export function refusals() {
  return [
    // @ts-expect-error autor is not a declared relation
    postsResource.list({ input: { include: { autor: true } } }),
    // @ts-expect-error autor is not a declared relation, beside one that is
    postsResource.get({ input: { id: 1, include: { author: true, autor: true } } }),
    // @ts-expect-error nested: post's resource declares no relation autor
    writersResource.list({ input: { include: { posts: { include: { author: true, autor: true } } } } }),
    // @ts-expect-error email is readable but not filterable in authors' policy
    postsResource.list({ input: { include: { author: { where: { email: { eq: 'a' } } } } } }),
    // @ts-expect-error gt is not among name's operators, beside one that is
    postsResource.list({ input: { include: { author: { where: { name: { eq: 'a', gt: 'b' } } } } } }),
    // @ts-expect-error titel is not a filterable field of posts, nested in AND beside one that is
    writersResource.list({ input: { include: { posts: { where: { AND: [{ title: { contains: 'a' }, titel: { eq: 'b' } }] } } } } }),
    // @ts-expect-error nme is not a readable field of authors
    postsResource.findOne({ input: { include: { author: { select: ['nme'] } } } }),
    // @ts-expect-error a to-one include takes no limit
    postsResource.list({ input: { include: { author: { limit: 2 } } } }),
    // @ts-expect-error title is not sortable in posts' policy
    writersResource.list({ input: { include: { posts: { orderBy: [{ field: 'title' }] } } } }),
    // @ts-expect-error a relation filter takes is / isNot / some / every / none only
    writersResource.list({ input: { include: { posts: { where: { author: { iss: { name: { eq: 'Ann' } } } } } } } }),
    // @ts-expect-error authors declares no relation here: it takes no include
    authorsResource.list({ input: { include: {} } }),
  ];
}
