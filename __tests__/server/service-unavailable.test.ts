// CONTRACT §4 as extended for production: a request that fails because its database cannot be reached
// answers 503 SERVICE_UNAVAILABLE with Retry-After, on every database and in every handler mode, for crud
// and custom actions alike; other failures stay 500. Real unreachable databases: a closed SQLite file, a
// SQLite file locked by another connection, a MariaDB or PostgreSQL port nothing listens on, an ended pool.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import mysql from 'mysql2/promise';
import { Pool } from 'pg';
import { TesseraError } from 'tessera-api';
import { BuiltBundle } from '../helpers/bundle-loader';
import { DIALECTS, openDatabase, type DialectName, type TestDatabase } from '../helpers/databases';
import { freePort } from '../helpers/free-port';
import * as mysqlSchema from '../helpers/schemas/mysql';
import * as postgresSchema from '../helpers/schemas/postgres';
import * as sqliteSchema from '../helpers/schemas/sqlite';
import { clearRegistry, defineTestService, HANDLER_MODES, listen, type TestServer, type TestService } from '../helpers/test-app';

const SCHEMAS = { sqlite: sqliteSchema, mysql: mysqlSchema, postgres: postgresSchema };
const ITEM_ID = 1;
const NOTE_ID = '00000000-0000-4000-8000-000000000000';

/** A database of this dialect that cannot be reached: SQLite closed, MariaDB and PostgreSQL on a port nothing listens on. */
async function unreachableDatabase(dialect: DialectName): Promise<Pick<TestDatabase, 'dialect' | 'db' | 'tables'> & { end(): Promise<void> }> {
  const { notes, items, categories, readings, counters, kinds } = SCHEMAS[dialect];
  const tables = { notes, items, categories, readings, counters, kinds };
  if (dialect === 'sqlite') {
    const client = new Database(':memory:');
    const db = drizzleSqlite(client);
    client.close();
    return { dialect, db, tables, end: async () => undefined };
  }
  const port = await freePort();
  if (dialect === 'mysql') {
    const pool = mysql.createPool({ uri: `mysql://root@127.0.0.1:${port}/test`, connectionLimit: 2, connectTimeout: 1000, supportBigNumbers: true });
    return { dialect, db: drizzleMysql(pool, { mode: 'default' }), tables, end: () => pool.end() };
  }
  const pool = new Pool({ connectionString: `postgres://postgres@127.0.0.1:${port}/test`, max: 2, connectionTimeoutMillis: 1000 });
  return { dialect, db: drizzlePostgres(pool), tables, end: () => pool.end() };
}

/** Every crud route of the public notes and guarded items resources, and the custom action. */
const REQUESTS: readonly { name: string; method: string; path: string; body?: unknown }[] = [
  { name: 'notes.list', method: 'POST', path: '/api/notes/query', body: {} },
  { name: 'notes.get', method: 'GET', path: `/api/notes/${NOTE_ID}` },
  { name: 'notes.findOne', method: 'POST', path: '/api/notes/find-one', body: {} },
  { name: 'notes.create', method: 'POST', path: '/api/notes', body: { title: 'unreachable' } },
  { name: 'notes.update', method: 'PATCH', path: `/api/notes/${NOTE_ID}`, body: { title: 'unreachable' } },
  { name: 'notes.delete', method: 'DELETE', path: `/api/notes/${NOTE_ID}` },
  { name: 'notes.count', method: 'POST', path: '/api/notes/count', body: {} },
  { name: 'notes.exists', method: 'POST', path: '/api/notes/exists', body: {} },
  { name: 'items.list (scoped)', method: 'POST', path: '/api/items/query', body: { includeTotal: true } },
  { name: 'items.create (scoped)', method: 'POST', path: '/api/items', body: { name: 'n', secret: 's' } },
  { name: 'items.update (scoped)', method: 'PATCH', path: `/api/items/${ITEM_ID}`, body: { name: 'n' } },
];

async function send(server: TestServer, request: (typeof REQUESTS)[number]): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
  const headers: Record<string, string> = { 'x-test-user': JSON.stringify({ user: { id: 'alice', role: 'member' } }) };
  if (request.body !== undefined) headers['content-type'] = 'application/json';
  const response = await server.fetch(request.path, { method: request.method, headers, body: request.body === undefined ? undefined : JSON.stringify(request.body) });
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() };
}

const UNAVAILABLE_BODY = { error: { code: 'SERVICE_UNAVAILABLE', message: 'The database cannot be reached; retry later' } };

describe.each(DIALECTS)('an unreachable %s database', (dialect) => {
  let database: Awaited<ReturnType<typeof unreachableDatabase>>;
  let service: TestService;
  const bundle = new BuiltBundle();

  beforeAll(async () => {
    clearRegistry();
    database = await unreachableDatabase(dialect);
    service = defineTestService(database as unknown as TestDatabase);
    // A custom action that queries the service's database.
    service.shop.action('reads', { handler: async ({ db }) => db.select().from(database.tables.notes) });
  });
  afterAll(async () => {
    bundle.remove();
    await database.end();
    clearRegistry();
  });

  describe.each(HANDLER_MODES)('%s handlers', (mode) => {
    let server: TestServer;
    const errors: string[] = [];
    beforeAll(async () => {
      server = await listen({ services: [service.shop], errorLogger: (line) => void errors.push(line) }, { mode, bundle });
    });
    afterAll(() => server.close());

    it.each(REQUESTS.map((request) => [request.name, request] as const))('%s answers 503 SERVICE_UNAVAILABLE with Retry-After: 1', async (_name, request) => {
      const answer = await send(server, request);
      expect(answer).toEqual({ status: 503, retryAfter: '1', body: UNAVAILABLE_BODY });
    });

    it('answers 503 for a custom action whose handler cannot reach the database', async () => {
      const answer = await send(server, { name: 'shop.reads', method: 'POST', path: '/api/shop/reads', body: {} });
      expect(answer).toEqual({ status: 503, retryAfter: '1', body: UNAVAILABLE_BODY });
    });

    // Issue 32: one line per 503 flooded the log in an outage. The first of a cause is written at once, the rest of
    // that second as one line with a count: every 503 is accounted for.
    it('logs the 503s one line per cause and second, with a count, naming the code and the driver code, without SQL', async () => {
      const burst = await Promise.all(Array.from({ length: 40 }, () => send(server, REQUESTS[0])));
      expect(burst.every((answer) => answer.status === 503)).toBe(true);
      const answered = REQUESTS.length + 1 + burst.length;
      const counted = () => errors.reduce((sum, line) => sum + (/ ×(\d+) more in the last 1 s: /.exec(line) === null ? 1 : Number(/ ×(\d+) /.exec(line)![1])), 0);
      const deadline = Date.now() + 5000;
      while (counted() < answered && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(counted()).toBe(answered);
      expect(errors.length).toBeLessThan(answered / 4);
      for (const line of errors) {
        expect(line).toMatch(/^SERVICE_UNAVAILABLE ((GET|POST|PATCH|DELETE) \/api\/\S+|×\d+ more in the last 1 s): /);
        expect(line).not.toMatch(/select|insert|update |delete from|t_notes|t_items/i);
      }
    });

    it('answers /_health 503 "degraded"', async () => {
      const response = await server.fetch('/_health');
      expect(response.status).toBe(503);
      expect(await response.json()).toMatchObject({ status: 'degraded', checks: { shop: expect.not.stringMatching(/^ok$/) } });
    });
  });

  it('throws TesseraError SERVICE_UNAVAILABLE (status 503) in-process, from crud and custom actions', async () => {
    const error = await service.notes.list({ input: {} }).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(TesseraError);
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    const reads = service.shop.actions.find((action) => action.name === 'reads')!;
    await expect(reads.route.run({}, {})).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
  });
});

describe('a reachable database whose client was ended', () => {
  afterEach(() => clearRegistry());

  it.each(['mysql', 'postgres'] as const)('%s: an ended pool answers 503', async (dialect) => {
    clearRegistry();
    const database = await openDatabase(dialect);
    const { notes } = defineTestService(database);
    await database.close();
    await expect(notes.list({ input: {} })).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
  });
});

describe('SQLite locked by another process past the busy timeout', () => {
  let folder: string;
  beforeAll(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-busy-'));
  });
  afterAll(() => {
    fs.rmSync(folder, { recursive: true, force: true });
    clearRegistry();
  });

  it('answers SQLITE_BUSY as 503 SERVICE_UNAVAILABLE, and writes once the lock is gone', async () => {
    const file = path.join(folder, 'busy.db');
    const served = new Database(file, { timeout: 50 });
    const other = new Database(file);
    try {
      for (const statement of sqliteSchema.DDL) served.exec(statement);
      clearRegistry();
      const database = { dialect: 'sqlite', db: drizzleSqlite(served), tables: { notes: sqliteSchema.notes, items: sqliteSchema.items, categories: sqliteSchema.categories, readings: sqliteSchema.readings, counters: sqliteSchema.counters, kinds: sqliteSchema.kinds } };
      const service = defineTestService(database as unknown as TestDatabase);
      const server = await listen({ services: [service.shop], errorLogger: false }, { mode: 'compiled' });
      try {
        other.exec('BEGIN EXCLUSIVE');
        const locked = await send(server, REQUESTS.find((request) => request.name === 'notes.create')!);
        expect(locked).toEqual({ status: 503, retryAfter: '1', body: UNAVAILABLE_BODY });
        other.exec('ROLLBACK');
        const unlocked = await send(server, REQUESTS.find((request) => request.name === 'notes.create')!);
        expect(unlocked.status).toBe(201);
      } finally {
        await server.close();
      }
    } finally {
      other.close();
      served.close();
    }
  });
});
