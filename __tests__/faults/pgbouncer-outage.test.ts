// PostgreSQL behind PgBouncer in transaction mode, set up as docs/production.md advises (the pool's
// statement_timeout 0, the statement cache off), with the service's own statement timeout: the service starts, and
// while the database is stopped every request answers 503 with Retry-After, never 500. PgBouncer reports what
// PostgreSQL would call a broken connection (server login failed, no server connection) as SQLSTATE 08P01.
import { drizzle } from 'drizzle-orm/node-postgres';
import { pgTable, serial, varchar } from 'drizzle-orm/pg-core';
import { Pool } from 'pg';
import { startPgBouncer, type PgBouncer } from '../helpers/pgbouncer';
import { startPrivateDatabaseServer, type PrivateDatabaseServer } from '../helpers/private-database-server';
import { clearRegistry, listen, type TestServer } from '../helpers/test-app';
import { crud, defineService } from 'tessera-api';

const notes = pgTable('b_notes', { id: serial('id').primaryKey(), title: varchar('title', { length: 200 }).notNull() });

describe('PostgreSQL through PgBouncer in transaction mode', () => {
  let databaseServer: PrivateDatabaseServer;
  let pgbouncer: PgBouncer;
  let pool: Pool;
  let server: TestServer;

  beforeAll(async () => {
    databaseServer = await startPrivateDatabaseServer('postgres');
    const setup = new Pool({ connectionString: databaseServer.url, max: 1 });
    await setup.query('CREATE TABLE b_notes (id serial PRIMARY KEY, title varchar(200) NOT NULL)');
    await setup.end();
    pgbouncer = await startPgBouncer(databaseServer.url);
    // PgBouncer refuses startup parameters it does not know: the pool names statement_timeout 0 (production.md).
    pool = new Pool({ connectionString: pgbouncer.url, max: 4, statement_timeout: 0 });
    clearRegistry();
    const service = defineService({ name: 'bounced', db: drizzle(pool), timeouts: { statement: 5000 } });
    service.resource({ name: 'notes', table: notes, id: notes.id }).use(crud({ access: 'public', fields: { id: { read: true }, title: { read: true, create: true } } }));
    server = await listen({ services: [service], statementCache: false, errorLogger: false });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await pool?.end().catch(() => undefined);
    await pgbouncer?.stop();
    await databaseServer?.destroy();
    clearRegistry();
  }, 60_000);

  const create = (title: string) => server.fetch('/api/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title }) });

  it('serves with the service statement timeout beside the pool statement_timeout 0', async () => {
    expect((await create('first')).status).toBe(201);
  });

  it('answers 503 with Retry-After while the database is stopped, and serves again once it is back', async () => {
    await databaseServer.stop();
    try {
      const answers = await Promise.all([create('during'), server.fetch('/api/notes/1'), server.fetch('/api/notes/query', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })]);
      expect(answers.map((answer) => [answer.status, answer.headers.get('retry-after')])).toEqual(answers.map(() => [503, '1']));
      expect(((await answers[0].json()) as { error: { code: string } }).error.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await databaseServer.start();
    }
    let status = 0;
    for (const started = Date.now(); status !== 201 && Date.now() - started < 30_000; await new Promise((resolve) => setTimeout(resolve, 200))) status = (await create('after')).status;
    // PgBouncer waits server_login_retry (15 s) after a failed login before it tries the server again.
    expect(status).toBe(201);
  }, 90_000);
});
