// The relations suite's application: authors (members see active authors only, emails scrubbed), their posts (public,
// a hidden column) and the posts' comments (refused to a caller flagged `noComments`). posts.author and posts.comments
// come from Drizzle relations(), as do comments.parent and comments.replies (the table to itself); authors.posts from the
// foreign key alone. updateMany (authors, posts) and deleteMany (posts, comments) take relation filters too.
import { crud, defineService } from 'tessera-api';
import type { RelationDatabase } from '../helpers/relation-tables';

export function defineRelationsApp(database: RelationDatabase) {
  const { authors, posts, comments } = database.tables;
  const blog = defineService({ name: 'rel', db: database.db });
  // Resources that name each other reach the later ones through functions (CONTRACT §9).
  let postsRef: object;
  let commentsRef: object;

  const authorsResource = blog.resource({ name: 'authors', table: authors, id: authors.id }).use(
    crud({
      access: {
        authorize: ({ ctx }) => ctx.user !== undefined,
        scope: ({ ctx }) => (ctx.user.role === 'admin' ? undefined : { active: { eq: true } }),
      },
      fields: {
        id: { read: true, filter: ['eq', 'in'], sort: true },
        name: { read: true, update: true, filter: ['eq', 'contains'], sort: true },
        email: { read: true, scrub: ({ value, ctx }) => (ctx.user?.role === 'admin' || value === null ? value : '***') },
        active: { read: true, filter: ['eq'] },
      },
      operations: { updateMany: true },
      relations: { posts: { resource: () => postsRef, filter: true } },
    }),
  );

  const postsResource = blog.resource({ name: 'posts', table: posts, id: posts.id }).use(
    crud({
      access: 'public',
      fields: {
        id: { read: true, filter: ['eq', 'in'], sort: true },
        title: { read: true, update: true, filter: ['eq', 'contains'], sort: true },
        authorId: { read: true, filter: ['eq', 'isNull'] },
      },
      maxLimit: 100,
      operations: { updateMany: true, deleteMany: true },
      maxAffected: 2,
      relations: {
        author: { resource: authorsResource, filter: true },
        comments: { resource: () => commentsRef, filter: true, maxLimit: 10 },
      },
    }),
  );

  postsRef = postsResource;

  const commentsResource = blog.resource({ name: 'comments', table: comments, id: comments.id }).use(
    crud({
      access: { authorize: ({ ctx }) => ctx.noComments !== true },
      fields: {
        id: { read: true, sort: true },
        postId: { read: true, filter: ['eq'] },
        body: { read: true, filter: ['contains'] },
        rating: { read: true, filter: ['gte', 'lte'], sort: true },
      },
      defaultLimit: 5,
      operations: { deleteMany: true },
      // A relation of the table to itself, both ways (parent_id, not readable: the join column of a relation need not be).
      relations: { post: { resource: () => postsResource }, parent: { resource: () => commentsRef, filter: true }, replies: { resource: () => commentsRef, filter: true } },
    }),
  );
  commentsRef = commentsResource;

  return { blog, authors: authorsResource, posts: postsResource, comments: commentsResource };
}

export type RelationsApp = ReturnType<typeof defineRelationsApp>;

/** Inserts rows with one statement, through the driver (not Tessera). */
export async function insertRows(database: RelationDatabase, table: string, columns: string, rows: unknown[][]): Promise<void> {
  if (rows.length === 0) return;
  let index = 0;
  const values = rows.map((row) => `(${row.map(() => (database.dialect === 'postgres' ? `$${++index}` : '?')).join(', ')})`).join(', ');
  await database.raw(`INSERT INTO ${table} (${columns}) VALUES ${values}`, rows.flat());
}

/** Back to the seeded rows, after a test that wrote some (same tables, so statements prepared on them stay valid). */
export async function reseedRelations(database: RelationDatabase): Promise<void> {
  for (const table of ['rel_comments', 'rel_posts', 'rel_authors']) await database.raw(`DELETE FROM ${table}`);
  await seedRelations(database);
}

/** Three authors (Bob inactive), four posts (one without author), five comments (two of them replies). */
export async function seedRelations(database: RelationDatabase): Promise<void> {
  const active = (value: boolean) => (database.dialect === 'sqlite' ? (value ? 1 : 0) : value);
  await insertRows(database, 'rel_authors', 'id, name, email, active, secret_note', [
    [1, 'Ann', 'ann@example.com', active(true), 'ann secret'],
    [2, 'Bob', 'bob@example.com', active(false), 'bob secret'],
    [3, 'Cy', null, active(true), null],
  ]);
  await insertRows(database, 'rel_posts', 'id, title, author_id, hidden', [
    [1, 'Hello', 1, 'h1'],
    [2, 'Second', 1, 'h2'],
    [3, 'From Bob', 2, 'h3'],
    [4, 'Orphan', null, 'h4'],
  ]);
  // meh answers nice, great answers meh.
  await insertRows(database, 'rel_comments', 'id, post_id, body, rating, parent_id', [
    [1, 1, 'nice', 5, null],
    [2, 1, 'meh', 2, 1],
    [3, 1, 'great', 4, 2],
    [4, 2, 'ok', 3, null],
    [5, 3, 'bob fan', 5, null],
  ]);
}
