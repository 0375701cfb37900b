// The application every crud suite runs against: one service over a TestDatabase with three resources
// covering the contract (public notes as in the spec, guarded items, categories with operations and
// routes changed), plus a client that makes the same call over HTTP or in-process.
import { getTableColumns } from 'drizzle-orm';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { clearRegistry, createServer, crud, defineService, TesseraError, type CrudActionName, type ServerOptions } from 'tessera';
import type { TestDatabase } from './databases';

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
  const { notes, items, categories, readings } = database.tables;
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

  const ping = shop.action('ping', {
    input: { type: 'object', properties: { echo: { type: 'string' } }, additionalProperties: false },
    handler: ({ input, ctx }) => ({ echo: input.echo ?? null, user: ctx.user?.id ?? null }),
  });

  return { shop, notes: notesResource, items: itemsResource, categories: categoriesResource, readings: readingsResource, ping, hookLog, accessLog };
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

/** A running HTTP server on a free port. */
export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export async function listen(options: ServerOptions): Promise<RunningServer> {
  const app = createServer({ requestLogging: false, context: testContext, ...options });
  const server: Server = await new Promise((resolve) => {
    const started = app.listen(0, '127.0.0.1', () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
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
  }
}

export interface Client {
  mode: Mode;
  call(resource: 'notes' | 'items' | 'categories' | 'readings', action: CrudActionName, input?: unknown, ctx?: Record<string, unknown>): Promise<Answer>;
}

export function httpClient(url: string): Client {
  return {
    mode: 'http',
    async call(resource, action, input, ctx) {
      const request = httpRequest(resource, action, input);
      const headers: Record<string, string> = {};
      if (ctx !== undefined) headers['x-test-user'] = JSON.stringify(ctx);
      if (request.body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(url + request.path, {
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
        return { status: action === 'create' ? 201 : 200, body: JSON.parse(JSON.stringify(output)) };
      } catch (error) {
        if (!(error instanceof TesseraError)) throw error;
        return { status: error.status, body: JSON.parse(JSON.stringify(error)) };
      }
    },
  };
}

export { clearRegistry };
