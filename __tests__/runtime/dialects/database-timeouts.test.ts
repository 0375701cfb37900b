// The services' database timeouts (issue 32, docs/databases.md#timeouts) on the shared MariaDB and PostgreSQL:
// a statement slower than `statement` answers 503 SERVICE_UNAVAILABLE and the service serves the next call; the
// driver's own settings are kept unless `timeouts` names them; mistakes are setup errors. (A frozen server, which
// only a private one can be, is __tests__/faults/database-hang.test.ts.)
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { sql } from 'drizzle-orm';
import mysql from 'mysql2/promise';
import { Pool } from 'pg';
import { clearRegistry, defineService, SetupError } from 'tessera-api';

const MYSQL_URL = process.env.TESSERA_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const POSTGRES_URL = process.env.TESSERA_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const SLEEP = { mysql: sql`select sleep(2)`, postgres: sql`select pg_sleep(2)` };

describe('database timeouts', () => {
  const clients: { end(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const client of clients.splice(0)) await client.end().catch(() => undefined);
    clearRegistry();
  });

  function databaseOf(dialect: 'mysql' | 'postgres', options: Record<string, unknown> = {}): { db: any; pool: any } {
    if (dialect === 'mysql') {
      const pool = mysql.createPool({ uri: MYSQL_URL, connectionLimit: 2, ...options });
      clients.push(pool);
      return { db: drizzleMysql(pool, { mode: 'default' }), pool };
    }
    const pool = new Pool({ connectionString: POSTGRES_URL, max: 2, ...options });
    clients.push(pool);
    return { db: drizzlePostgres(pool), pool };
  }

  it.each(['mysql', 'postgres'] as const)('%s: a statement slower than `statement` answers 503, and the next call is served', async (dialect) => {
    const { db } = databaseOf(dialect);
    const service = defineService({ name: 'slow', db, timeouts: { statement: 300 } });
    const sleep = service.action('sleep', { handler: async ({ db: database }) => (await database.execute(SLEEP[dialect]), { slept: true }) });
    const ping = service.action('ping', { handler: async ({ db: database }) => (await database.execute(sql`select 1`), { ok: true }) });
    await expect(sleep()).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    await expect(ping()).resolves.toEqual({ ok: true });
    expect(service.timeouts).toEqual({ connect: 5000, acquire: 5000, statement: 300 });
  });

  it("postgres: keeps the pool's own timeouts unless `timeouts` names them", () => {
    const own = databaseOf('postgres', { connectionTimeoutMillis: 2000, statement_timeout: 7000 });
    expect(defineService({ name: 'own', db: own.db }).timeouts).toEqual({ connect: 2000, acquire: 2000, statement: 7000 });
    expect(own.pool.options).toMatchObject({ connectionTimeoutMillis: 2000, statement_timeout: 7000, query_timeout: 8000 });
    const named = databaseOf('postgres', { connectionTimeoutMillis: 2000 });
    expect(defineService({ name: 'named', db: named.db, timeouts: { connect: 900, statement: 400 } }).timeouts).toEqual({ connect: 900, acquire: 2000, statement: 400 });
    expect(named.pool.options).toMatchObject({ connectionTimeoutMillis: 900, statement_timeout: 400, query_timeout: 1400 });
    // Behind PgBouncer: no statement_timeout startup parameter, the client-side bound only.
    const bouncer = databaseOf('postgres', { statement_timeout: 0 });
    defineService({ name: 'bouncer', db: bouncer.db });
    expect(bouncer.pool.options).toMatchObject({ statement_timeout: 0, query_timeout: 11_000 });
  });

  it("mysql: keeps the pool's own connectTimeout unless it is mysql2's default or `timeouts` names it", () => {
    expect(defineService({ name: 'own', db: databaseOf('mysql', { connectTimeout: 3000 }).db }).timeouts?.connect).toBe(3000);
    expect(defineService({ name: 'default', db: databaseOf('mysql').db }).timeouts?.connect).toBe(5000);
    expect(defineService({ name: 'named', db: databaseOf('mysql', { connectTimeout: 3000 }).db, timeouts: { connect: 700 } }).timeouts?.connect).toBe(700);
  });

  it.each([
    [{ statement: 0 }, 'timeouts.statement must be a whole number of milliseconds from 1 to 2147483647'],
    [{ connect: 1.5 }, 'timeouts.connect must be a whole number'],
    [{ query: 100 }, 'timeouts.query is not a timeout (connect, acquire, statement)'],
    ['10s', 'timeouts must be an object'],
  ])('refuses timeouts %j at setup', (timeouts, message) => {
    expect(() => defineService({ name: 'bad', db: databaseOf('postgres').db, timeouts: timeouts as never })).toThrow(SetupError);
    expect(() => defineService({ name: 'bad2', db: databaseOf('postgres').db, timeouts: timeouts as never })).toThrow(message);
  });
});
