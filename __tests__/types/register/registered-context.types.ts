// The application's context declared once, by augmenting Register (issue 31): every `ctx` is typed by it without a
// type argument anywhere. Compiled by policy-types.test.ts in a project of its own (an augmentation is global, so it
// stays out of the repository's tsconfig), under NodeNext and Bundler resolution.
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createServer, crud, defineService, type Context, type ServerOptions } from 'tessera-api';

declare module 'tessera-api' {
  interface Register {
    context: { user?: { id: string; role: 'member' | 'admin' } };
  }
}

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;
export type ContextIsRegistered = Expect<Equal<Context, { user?: { id: string; role: 'member' | 'admin' } }>>;

const notes = sqliteTable('notes', { id: text('id').primaryKey(), ownerId: text('owner_id').notNull(), title: text('title').notNull() });
const service = defineService({ name: 'registered', db: drizzle(new Database(':memory:')) });

export const notesResource = service.resource({ name: 'notes', table: notes, id: notes.id }).use(
  crud({
    access: {
      authorize: ({ ctx }) => ctx.user !== undefined,
      scope: ({ ctx }) => (ctx.user?.role === 'admin' ? undefined : { ownerId: { eq: ctx.user?.id } }),
    },
    fields: { id: { read: true }, title: { read: true, create: true, scrub: ({ value, ctx }) => (ctx.user === undefined ? null : value) } },
    hooks: { beforeCreate: ({ data, ctx }) => ({ ...data, id: 'n1', ownerId: ctx.user?.id ?? 'nobody' }) },
  }),
);

export const refusals = [
  // @ts-expect-error the registered context has no tenant
  service.resource({ name: 'other', table: notes, id: notes.id }).use(crud({ access: { authorize: ({ ctx }) => ctx.tenant === 'a' } })),
  // @ts-expect-error in-process callers pass the registered context
  notesResource.list({ ctx: { user: { id: 1 } } }),
  // @ts-expect-error the context factory answers the registered context
  createServer({ context: () => ({ user: 'alice' }) }),
];

export const accepted = [
  notesResource.list({ ctx: { user: { id: 'u1', role: 'member' } } }),
  createServer({ context: () => ({ user: { id: 'u1', role: 'admin' } }) }),
  { context: async () => ({}) } satisfies ServerOptions,
];
