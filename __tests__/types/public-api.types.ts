// Compile-time checks of the public types, run by `tsc --noEmit` (part of `npm test`).
// A wrong type here fails the build, so these are real assertions even though jest never runs them.
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { crud, defineService, type Row } from 'tessera-api';
import { secret, type CrudOptions, type OpenApiDocument, type SecretsOptions, type SecurityOptions, type ServerOptions } from 'tessera-api';
import type { OpenAPIV3_1 } from 'openapi-types';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

const events = sqliteTable('events', {
  id: integer('id').primaryKey(),
  name: text('name').notNull(),
  at: integer('at', { mode: 'timestamp' }),
});

// Row values travel as JSON: dates become ISO strings. `Row` of a table alone knows no policy: every key is optional.
export type RowIsJson = Expect<Equal<Row<typeof events>, { id?: number; name?: string; at?: string | null }>>;

// A resource's rows follow its policy (policy-types.types.ts checks the rest): the readable fields, every one present.
export function typedActions() {
  const service = defineService({ name: 'types', db: drizzle(new Database(':memory:')) });
  const resource = service.resource({ name: 'events', table: events, id: events.id }).use(
    crud({ access: 'public', fields: { id: { read: true }, name: { read: true }, at: { read: true, sort: true } } }),
  );
  type EventRow = { id: number; name: string; at: string | null };
  type ListResult = Awaited<ReturnType<typeof resource.list>>;
  type GetResult = Awaited<ReturnType<typeof resource.get>>;
  type CountResult = Awaited<ReturnType<typeof resource.count>>;
  return [
    true as Expect<Equal<ListResult, { items: EventRow[]; total?: number; nextCursor?: string | null }>>,
    true as Expect<Equal<GetResult, EventRow>>,
    true as Expect<Equal<CountResult, { count: number }>>,
    // select names only the table's keys:
    resource.list({ input: { select: ['name'], orderBy: [{ field: 'at', direction: 'desc' }] } }),
    // @ts-expect-error 'nope' is not a column of events
    resource.list({ input: { select: ['nope'] } }),
  ];
}

// Secrets: a string default means value() is never undefined; transform changes the type; url() needs a string.
export function typedSecrets() {
  const port = secret('TYPES_PORT').default('4000').transform(Number);
  const databaseUrl = secret('TYPES_DATABASE_URL').url();
  const dsn = secret('TYPES_DSN').default(undefined).url();
  const secrets: SecretsOptions = { source: (name) => (name === 'TYPES_PORT' ? '80' : undefined), validate: true };
  return [
    true as Expect<Equal<ReturnType<typeof port.value>, number>>,
    true as Expect<Equal<ReturnType<typeof port.require>, number>>,
    true as Expect<Equal<ReturnType<typeof databaseUrl.value>, string | undefined>>,
    true as Expect<Equal<ReturnType<typeof databaseUrl.require>, string>>,
    true as Expect<Equal<ReturnType<typeof dsn.value>, string | undefined>>,
    { secrets: { source: process.env } } satisfies ServerOptions,
    { secrets } satisfies ServerOptions,
    // @ts-expect-error url() checks a string: call it before a transform to another type
    secret('TYPES_TIMEOUT').transform(Number).url(),
    // @ts-expect-error validate() receives the transformed value
    secret('TYPES_RETRIES').transform(Number).validate((value: string) => value !== ''),
    // @ts-expect-error a source holds strings
    { secrets: { source: { TYPES_PORT: 80 } } } satisfies ServerOptions,
  ];
}

// The OpenAPI document is openapi-types' 3.1 document; route settings take a scope; `security` takes OpenAPI schemes.
export type DocumentIsOpenApi31 = Expect<Equal<OpenApiDocument extends OpenAPIV3_1.Document ? true : false, true>>;
export const routeSettings: CrudOptions['routes'] = {
  list: { scope: ({ ctx }) => ({ ownerId: { eq: ctx.user } }) },
  get: { path: '/:id/mine', scope: async () => undefined },
  delete: false,
  // @ts-expect-error a route setting takes path and scope only
  count: { method: 'GET' },
};
export const security: ServerOptions['security'] = {
  schemes: { bearer: { type: 'http', scheme: 'bearer' }, key: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
  require: { 'blog.tasks': true, 'blog.notes.create': ['key', { bearer: [] }], blog: false },
};
// @ts-expect-error an http scheme needs `scheme`
export const incompleteScheme: SecurityOptions = { schemes: { bearer: { type: 'http' } } };
// The dashboard option (CONTRACT §8): tokens are strings or string secrets, alone or in a list; authorize answers
// a boolean or a Response, at once or later.
export function typedDashboard() {
  const token = secret('TYPES_DASHBOARD_TOKEN');
  return [
    { dashboard: {} } satisfies ServerOptions,
    { dashboard: { port: 4001, host: '0.0.0.0', historyDays: 14, historyFile: '/var/lib/app/history.db', auth: { token } } } satisfies ServerOptions,
    { dashboard: { auth: { token: ['a-literal-token', token] } } } satisfies ServerOptions,
    { dashboard: { auth: { authorize: (request: Request) => request.headers.get('x-user') === 'ops' } } } satisfies ServerOptions,
    { dashboard: { auth: { authorize: async () => new Response('no', { status: 403 }) } } } satisfies ServerOptions,
    // @ts-expect-error a token is text: a secret transformed to a number is not one
    { dashboard: { auth: { token: secret('TYPES_DASHBOARD_NUMBER').transform(Number) } } } satisfies ServerOptions,
    // @ts-expect-error historyDays is a number of days
    { dashboard: { historyDays: '7' } } satisfies ServerOptions,
    // @ts-expect-error prot is not an option
    { dashboard: { prot: 4001 } } satisfies ServerOptions,
  ];
}
