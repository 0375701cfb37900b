// The application every crud suite runs against: one service over a TestDatabase with three resources
// covering the contract (public notes as in the spec, guarded items, categories with operations and
// routes changed), a server in any handler mode, and a client that makes the same call over HTTP or in-process.
import { getTableColumns } from 'drizzle-orm';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { clearRegistry, createServer, crud, defineService, TesseraError, type CrudActionName, type ServerOptions } from 'tessera-api';
import { BuiltBundle } from './bundle-loader';
import type { TestDatabase } from './databases';
import type { ResponseRecording } from './response-recording';

export interface TestUser {
  id: string;
  role: 'admin' | 'member';
}

export const ALICE: TestUser = { id: 'alice', role: 'member' };
export const BOB: TestUser = { id: 'bob', role: 'member' };
export const ADMIN: TestUser = { id: 'admin', role: 'admin' };

/** Records hook calls so tests can check what hooks received. */
export interface HookLog {
  calls: { hook: string; args: any }[];
}

/** Records what items' authorize and scope received, in call order. */
export interface AccessLog {
  calls: { rule: 'authorize' | 'scope'; args: any }[];
}

export function defineTestService(database: TestDatabase, hookLog: HookLog = { calls: [] }, accessLog: AccessLog = { calls: [] }) {
  const { notes, items, categories, readings, counters, kinds } = database.tables;
  const shop = defineService({ name: 'shop', db: database.db });

  const notesResource = shop.resource({ name: 'notes', table: notes, id: notes.id }).use(
    crud({
      access: 'public',
      fields: {
        id: { read: true, filter: ['eq', 'ne', 'in', 'notIn'], sort: true },
        title: {
          read: true,
          create: true,
          update: true,
          filter: ['eq', 'ne', 'in', 'notIn', 'gt', 'gte', 'lt', 'lte', 'between', 'contains', 'startsWith', 'endsWith'],
          sort: true,
        },
        content: { read: true, create: true, update: true, filter: ['contains', 'isNull', 'isNotNull'] },
      },
      defaultLimit: 3,
      maxLimit: 10,
    }),
  );

  const itemsResource = shop.resource({ name: 'items', table: items, id: items.id }).use(
    crud({
      access: {
        authorize: (args) => {
          accessLog.calls.push({ rule: 'authorize', args });
          return args.ctx.user !== undefined && (args.action !== 'delete' || args.ctx.user.role === 'admin');
        },
        scope: (args) => {
          accessLog.calls.push({ rule: 'scope', args });
          return args.ctx.user.role === 'admin' ? undefined : { ownerId: { eq: args.ctx.user.id } };
        },
      },
      fields: {
        id: { read: true, filter: ['eq', 'in'], sort: true },
        name: { read: true, create: true, update: true, filter: ['eq', 'contains'], sort: true },
        price: { read: true, create: true, update: true, filter: ['eq', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'isNull', 'isNotNull'], sort: true },
        rating: { read: true, create: true, update: true, sort: true },
        active: { read: true, create: true, update: true, filter: ['eq'] },
        createdAt: { read: true, filter: ['gt', 'lt', 'between'], sort: true },
        ownerId: { read: true, filter: ['eq'] },
        secret: { create: true }, // write-only
        email: {
          read: true,
          create: true,
          update: true,
          filter: ['eq'],
          scrub: ({ value, ctx }) => (ctx.user?.role === 'admin' || value === null ? value : 'hidden'),
        },
        categoryId: { read: true, create: true, update: true },
      },
      operations: { createMany: true, updateMany: true, deleteMany: true, upsert: true },
      hooks: {
        beforeCreate: ({ data, ctx }) => {
          hookLog.calls.push({ hook: 'beforeCreate', args: { data: { ...data }, ctx } });
          // An admin may create rows for others through ownerId in a header-less way: tests use `owner` to force a row outside scope.
          return { ...data, ownerId: ctx.forceOwner ?? ctx.user.id };
        },
        beforeUpdate: ({ id, data, ctx }) => {
          hookLog.calls.push({ hook: 'beforeUpdate', args: { id, data: { ...data }, ctx } });
          return ctx.forceOwner === undefined ? undefined : { ...data, ownerId: ctx.forceOwner };
        },
        afterCreate: ({ result }) => void hookLog.calls.push({ hook: 'afterCreate', args: { result } }),
        afterUpdate: ({ id, result }) => void hookLog.calls.push({ hook: 'afterUpdate', args: { id, result } }),
        afterDelete: ({ id, result }) => void hookLog.calls.push({ hook: 'afterDelete', args: { id, result } }),
      },
    }),
  );

  const categoriesResource = shop.resource({ name: 'categories', table: categories, id: categories.id }).use(
    crud({
      access: {}, // no authorize: every call is FORBIDDEN (spec §5.1 rule 4)
      fields: { id: { read: true }, name: { read: true, create: true } },
      operations: { delete: false, update: false },
      routes: { list: { path: '/search' }, get: false },
    }),
  );

  // Every column of readings is readable, writable and filterable: the table exists for its value types.
  const readingFields: Record<string, object> = {};
  for (const key of Object.keys(getTableColumns(readings))) if (key !== 'id') readingFields[key] = { read: true, create: true, filter: ['eq', 'in'] };
  const readingsResource = shop.resource({ name: 'readings', table: readings, id: readings.id }).use(
    crud({ access: 'public', fields: { id: { read: true }, ...readingFields } }),
  );

  // The client names each counter's key: no auto-increment, no $defaultFn, so the statement cache serves every call.
  const countersResource = shop.resource({ name: 'counters', table: counters, id: counters.code }).use(
    crud({
      access: 'public',
      fields: {
        code: { read: true, create: true, filter: ['eq', 'in'], sort: true },
        n: { read: true, create: true, update: true, filter: ['eq', 'gte'], sort: true },
        label: { read: true, create: true, update: true, sort: true },
      },
      operations: { createMany: true, updateMany: true, deleteMany: true, upsert: true },
      maxBatch: 5,
      maxAffected: 3,
    }),
  );

  // Column kinds whose driver values Drizzle decodes, with no application default: the fixed shapes serve them.
  const kindFields: Record<string, object> = {};
  for (const key of Object.keys(getTableColumns(kinds))) kindFields[key] = key === 'id' ? { read: true, sort: true } : { read: true, create: true, update: true };
  const kindsResource = shop.resource({ name: 'kinds', table: kinds, id: kinds.id }).use(crud({ access: 'public', fields: kindFields }));

  const ping = shop.action('ping', {
    input: { type: 'object', properties: { echo: { type: 'string' } }, additionalProperties: false },
    handler: ({ input, ctx }) => ({ echo: input.echo ?? null, user: ctx.user?.id ?? null }),
  });

  return { shop, notes: notesResource, items: itemsResource, categories: categoriesResource, readings: readingsResource, counters: countersResource, kinds: kindsResource, ping, hookLog, accessLog };
}

export type TestService = ReturnType<typeof defineTestService>;

/** Caller context over HTTP: the test user travels as JSON in `x-test-user`. */
export function testContext(req: { headers: Record<string, string | string[] | undefined> }) {
  const header = req.headers['x-test-user'];
  if (header === 'bad') throw new TesseraError('UNAUTHORIZED', 'bad credentials');
  return typeof header === 'string' ? JSON.parse(header) : {};
}

export interface Answer {
  status: number;
  body: any;
}

/**
 * How the server answers action routes (CONTRACT §5): the generic handler (`compiler: false`), handlers
 * compiled at construction (`compiler: true`), or a built bundle's, written to files and required (`compilation`).
 */
export type HandlerMode = 'generic' | 'compiled' | 'bundle';
export const HANDLER_MODES: readonly HandlerMode[] = ['generic', 'compiled', 'bundle'];

/** A running HTTP server on a free port. */
export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** The test server `listen` starts. */
export interface TestServer extends RunningServer {
  /** The application createServer made (for startDashboard). */
  app: ReturnType<typeof createServer>;
  /** `fetch` of a path on this server; with a recording, every response is recorded as it arrives. */
  fetch(path: string, init?: RequestInit): Promise<globalThis.Response>;
}

export interface ListenOptions {
  /** Overrides `compiler` / `compilation` in the server options; left out, those apply as given. */
  mode?: HandlerMode;
  recording?: ResponseRecording | null;
  /** Bundle mode: a build shared by several servers (the caller removes it); left out, the server builds its own. */
  bundle?: BuiltBundle;
}

function handlerOptions(options: ServerOptions, { mode, bundle }: ListenOptions): { choice: Partial<ServerOptions>; remove(): void } {
  if (mode === undefined) return { choice: {}, remove: () => {} };
  if (mode === 'generic') return { choice: { compiler: false }, remove: () => {} };
  if (mode === 'compiled') return { choice: { compiler: true }, remove: () => {} };
  const built = bundle ?? new BuiltBundle();
  const isOwn = bundle === undefined;
  return { choice: { compilation: built.compilationFor(options) }, remove: isOwn ? () => built.remove() : () => {} };
}

export async function listen(options: ServerOptions, listenOptions: ListenOptions = {}): Promise<TestServer> {
  const recording = listenOptions.recording ?? null;
  const handlers = handlerOptions(options, listenOptions);
  const app = createServer({ requestLogging: false, context: testContext, ...options, ...handlers.choice });
  const server: Server = await new Promise((resolve) => {
    const started = app.listen(0, '127.0.0.1', () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    app,
    async fetch(path, init) {
      if (recording === null) return fetch(url + path, init);
      const request = recording.nextRequest(); // numbered when sent, recorded when answered
      const response = await fetch(url + path, init);
      recording.add(request, response, await response.clone().text());
      return response;
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      handlers.remove();
    },
  };
}

export type Mode = 'http' | 'in-process';

/** The route of each action in the default layout (CONTRACT §2). */
function httpRequest(resource: string, action: CrudActionName, input: any): { method: string; path: string; body?: unknown } {
  const base = `/api/${resource}`;
  const id = (value: unknown) => encodeURIComponent(String(value));
  switch (action) {
    case 'list':
      return { method: 'POST', path: `${base}/query`, body: input ?? {} };
    case 'findOne':
      return { method: 'POST', path: `${base}/find-one`, body: input ?? {} };
    case 'count':
    case 'exists':
      return { method: 'POST', path: `${base}/${action}`, body: input ?? {} };
    case 'create':
      return { method: 'POST', path: base, body: input };
    case 'get': {
      const query = input.select === undefined ? '' : `?select=${input.select.join(',')}`;
      return { method: 'GET', path: `${base}/${id(input.id)}${query}` };
    }
    case 'update':
      return { method: 'PATCH', path: `${base}/${id(input.id)}`, body: input.data };
    case 'delete':
      return { method: 'DELETE', path: `${base}/${id(input.id)}` };
    case 'createMany':
      return { method: 'POST', path: `${base}/bulk`, body: input };
    case 'updateMany':
      return { method: 'PATCH', path: base, body: input };
    case 'deleteMany':
      return { method: 'POST', path: `${base}/delete`, body: input };
    case 'upsert':
      return { method: 'PUT', path: `${base}/${id(input.id)}`, body: input.data };
  }
}

export interface Client {
  mode: Mode;
  call(resource: 'notes' | 'items' | 'categories' | 'readings' | 'counters' | 'kinds', action: CrudActionName, input?: unknown, ctx?: Record<string, unknown>): Promise<Answer>;
}

export function httpClient(server: Pick<TestServer, 'fetch'>): Client {
  return {
    mode: 'http',
    async call(resource, action, input, ctx) {
      const request = httpRequest(resource, action, input);
      const headers: Record<string, string> = {};
      if (ctx !== undefined) headers['x-test-user'] = JSON.stringify(ctx);
      if (request.body !== undefined) headers['content-type'] = 'application/json';
      const response = await server.fetch(request.path, {
        method: request.method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
      });
      const text = await response.text();
      return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
    },
  };
}

export function inProcessClient(service: TestService): Client {
  return {
    mode: 'in-process',
    async call(resource, action, input, ctx) {
      const target = service[resource] as any;
      if (typeof target[action] !== 'function') return { status: 404, body: { error: { code: 'NOT_FOUND', message: 'no such action' } } };
      try {
        const output = await target[action]({ input, ctx: ctx ?? {} });
        // Over HTTP the output travels as JSON: compare the same form.
        // upsert's 201 (a created row) exists only over HTTP: in-process it answers the row alone.
        return { status: action === 'create' || action === 'createMany' ? 201 : 200, body: JSON.parse(JSON.stringify(output)) };
      } catch (error) {
        if (!(error instanceof TesseraError)) throw error;
        return { status: error.status, body: JSON.parse(JSON.stringify(error)) };
      }
    },
  };
}

export { clearRegistry };
