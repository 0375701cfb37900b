// Compile-time checks that the in-process actions are typed by the field policy (issue 31), run by `tsc --noEmit` and,
// as a user's project would compile them, under NodeNext and Bundler resolution (policy-types.test.ts). Each
// `@ts-expect-error` is a refusal: if the line compiled, tsc would report the unused directive.
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createServer, crud, defineService, TesseraError, type ServerOptions } from 'tessera-api';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

export const notes = sqliteTable('notes', {
  id: text('id').primaryKey().$defaultFn(() => 'n1'),
  title: text('title').notNull(),
  content: text('content'),
  internal: text('internal'),
  ownerId: text('owner_id').notNull(),
  email: text('email'),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  views: integer('views').notNull().default(0),
});

interface AppContext {
  user?: { id: string; role: 'member' | 'admin' };
  requestId?: string;
}

const db = drizzle(new Database(':memory:'));
const service = defineService<AppContext>()({ name: 'policy_types', db });

export const notesResource = service.resource({ name: 'notes', table: notes, id: notes.id }).use(
  crud({
    access: {
      authorize: ({ ctx, action }) => ctx.user !== undefined || action === 'list',
      scope: ({ ctx }) => (ctx.user?.role === 'admin' ? undefined : { ownerId: { eq: ctx.user?.id }, internal: { isNull: true } }),
    },
    fields: {
      id: { read: true, filter: ['eq', 'in'], sort: true },
      title: { read: true, create: true, update: true, filter: ['eq', 'contains'], sort: true },
      content: { read: true, create: true, update: true },
      email: { read: true, create: true, scrub: ({ value, ctx }) => (ctx.user?.role === 'admin' ? value : '***') },
      createdAt: { read: true, create: true, filter: ['gt', 'between'], sort: true },
      views: { read: true, update: true, filter: ['gte'] },
    },
    operations: { delete: false },
    hooks: {
      beforeCreate: ({ data, ctx }) => ({ ...data, ownerId: ctx.user?.id ?? 'nobody' }),
      beforeUpdate: ({ data }) => ({ ...data, title: data.title?.trim() }),
      afterCreate: ({ result }) => void result.title.toUpperCase(),
    },
  }),
);

type NoteRow = { id: string; title: string; content: string | null; email: unknown; createdAt: string; views: number };

export async function rows() {
  const page = await notesResource.list();
  const titles = await notesResource.list({ input: { select: ['id', 'title'] } });
  const one = await notesResource.get({ input: { id: 'a', select: ['title'] } });
  const found = await notesResource.findOne({ input: { where: { title: { contains: 'x' } } } });
  // CONTRACT §10: a cursor in the input, nextCursor in the answer (null on the last page).
  const firstPage = await notesResource.list({ input: { orderBy: [{ field: 'title' }], cursor: true } });
  const nextPage = await notesResource.list({ input: { orderBy: [{ field: 'title' }], cursor: firstPage.nextCursor ?? true } });
  return [
    true as Expect<Equal<typeof firstPage.nextCursor, string | null>>,
    true as Expect<Equal<typeof nextPage.nextCursor, string | null>>,
    true as Expect<Equal<typeof page.nextCursor, string | null | undefined>>,
    // @ts-expect-error findOne answers one row: it takes no cursor
    notesResource.findOne({ input: { cursor: true } }),
    // Readable fields only, every one present; the scrubbed one unknown; dates in their JSON form.
    true as Expect<Equal<(typeof page.items)[number], NoteRow>>,
    true as Expect<Equal<(typeof titles.items)[number], { id: string; title: string }>>,
    true as Expect<Equal<typeof one, { title: string }>>,
    true as Expect<Equal<typeof found, NoteRow | null>>,
    // @ts-expect-error internal is hidden: not in rows
    page.items[0].internal,
    // @ts-expect-error ownerId is hidden: not in rows
    page.items[0].ownerId,
    // @ts-expect-error select narrowed the row to id and title
    titles.items[0].content,
    // @ts-expect-error internal is not readable: select refuses it
    notesResource.list({ input: { select: ['internal'] } }),
  ];
}

export function filters() {
  return [
    notesResource.list({ input: { where: { title: { eq: 'a', contains: 'b' }, OR: [{ id: { in: ['1', '2'] } }, { NOT: { views: { gte: 3 } } }] } } }),
    notesResource.count({ input: { where: { createdAt: { between: ['2026-01-01T00:00:00.000Z', '2026-12-31T00:00:00.000Z'] } } } }),
    notesResource.exists({ input: { where: { AND: [{ createdAt: { gt: '2026-01-01T00:00:00.000Z' } }] } } }),
    notesResource.list({ input: { orderBy: [{ field: 'createdAt', direction: 'desc' }, { field: 'title' }], limit: 5 } }),
    // @ts-expect-error gt is not among title's operators
    notesResource.list({ input: { where: { title: { gt: 'a' } } } }),
    // @ts-expect-error content has no filter
    notesResource.count({ input: { where: { content: { contains: 'a' } } } }),
    // @ts-expect-error internal is hidden: not filterable
    notesResource.exists({ input: { where: { internal: { isNull: true } } } }),
    // @ts-expect-error in takes a list
    notesResource.list({ input: { where: { id: { in: '1' } } } }),
    // @ts-expect-error views is a number
    notesResource.list({ input: { where: { OR: [{ views: { gte: 'many' } }] } } }),
    // @ts-expect-error content is not sortable
    notesResource.list({ input: { orderBy: [{ field: 'content' }] } }),
  ];
}

export function writes() {
  return [
    notesResource.create({ input: { title: 'a', createdAt: '2026-11-26T00:00:00.000Z' } }),
    notesResource.create({ input: { title: 'a', createdAt: '2026-11-26T00:00:00.000Z', content: null, email: 'a@example.com' } }),
    notesResource.update({ input: { id: 'a', data: { views: 2 } } }),
    // @ts-expect-error internal is not writable
    notesResource.create({ input: { title: 'a', createdAt: '2026-11-26T00:00:00.000Z', internal: 'x' } }),
    // @ts-expect-error title is required (NOT NULL without a default)
    notesResource.create({ input: { createdAt: '2026-11-26T00:00:00.000Z' } }),
    // @ts-expect-error email is creatable, not updatable
    notesResource.update({ input: { id: 'a', data: { email: 'b@example.com' } } }),
    // @ts-expect-error delete is switched off: it does not exist
    notesResource.delete({ input: { id: 'a' } }),
  ];
}

export function context() {
  return [
    notesResource.list({ ctx: { user: { id: 'u1', role: 'admin' } } }),
    // @ts-expect-error a role is 'member' or 'admin'
    notesResource.list({ ctx: { user: { id: 'u1', role: 'owner' } } }),
    service.action('whoami', { handler: ({ ctx }) => ({ id: ctx.user?.id }) }),
    createServer<AppContext>({
      context: (req) => {
        if (req.headers.authorization === undefined) throw new TesseraError('UNAUTHORIZED');
        return { user: { id: 'u1', role: 'member' } };
      },
    }),
    { context: () => ({ user: { id: 'u1', role: 'admin' } }) } satisfies ServerOptions<AppContext>,
    // @ts-expect-error the context factory answers the declared context
    { context: () => ({ user: { id: 1 } }) } satisfies ServerOptions<AppContext>,
  ];
}

// Setup mistakes the types refuse before the runtime would.
export function setup() {
  const events = sqliteTable('events', { id: integer('id').primaryKey(), name: text('name').notNull(), at: integer('at', { mode: 'timestamp' }) });
  const resource = () => service.resource({ name: 'events', table: events, id: events.id });
  return [
    // @ts-expect-error titel is not a column of events
    resource().use(crud({ access: 'public', fields: { titel: { read: true } } })),
    // @ts-expect-error hook data is the table's insert type: name is a string
    resource().use(crud({ access: 'public', hooks: { beforeCreate: ({ data }) => ({ ...data, name: 1 }) } })),
    resource().use(crud({ access: 'public', hooks: { beforeUpdate: ({ data }) => ({ ...data, at: new Date() }) } })),
    // @ts-expect-error ctx is the service's context: it has no tenant
    resource().use(crud({ access: { authorize: ({ ctx }) => ctx.tenant === 'a' } })),
    // @ts-expect-error a scope names columns of the table
    resource().use(crud({ access: { scope: () => ({ owner: { eq: 'a' } }) } })),
  ];
}

// With every action off, none exists.
export const closed = defineService({ name: 'policy_types_closed', db })
  .resource({ name: 'notes', table: notes, id: notes.id })
  .use(crud({ access: 'public', operations: false }));
// @ts-expect-error operations: false leaves no action
closed.list();

// CONTRACT §9: a relation with `filter: true` may stand in a `where`; one without it may not.
export const labels = sqliteTable('labels', { id: text('id').primaryKey(), noteId: text('note_id').notNull().references(() => notes.id), name: text('name').notNull() });
export const labelsResource = service.resource({ name: 'labels', table: labels, id: labels.id }).use(
  crud({
    access: 'public',
    fields: { id: { read: true }, name: { read: true, filter: ['eq'] } },
    relations: { note: { resource: notesResource, filter: true }, sameNote: { resource: notesResource } },
  }),
);

export async function relationFilters() {
  await labelsResource.list({ input: { where: { note: { is: { title: { eq: 'x' } } } }, include: { note: true } } });
  await labelsResource.count({ input: { where: { OR: [{ name: { eq: 'a' } }, { note: { isNot: { title: { eq: 'x' } } } }] } } });
  // @ts-expect-error sameNote is declared without filter: true
  await labelsResource.list({ input: { where: { sameNote: { is: { title: { eq: 'x' } } } } } });
}
