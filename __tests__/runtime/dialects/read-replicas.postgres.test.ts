// A Drizzle withReplicas database as a service's db, on a real PostgreSQL streaming replica of a private primary:
// in every handler mode (and with the statement cache off) reads (get, list, findOne, count, exists) are answered
// by the replica and writes with their answers by the primary. Paused replay shows what a client sees while the
// replica lags (docs/databases.md): its own write answered at once, its reads stale until the replica catches up.
import { drizzle } from 'drizzle-orm/node-postgres';
import { pgTable, serial, varchar, withReplicas } from 'drizzle-orm/pg-core';
import { Pool } from 'pg';
import { crud, defineService, type ServerOptions } from 'tessera-api';
import { startPrivateDatabaseServer, type PrivateDatabaseServer } from '../../helpers/private-database-server';
import { startStreamingReplica, type StreamingReplica } from '../../helpers/streaming-replica';
import { clearRegistry, listen, type HandlerMode, type TestServer } from '../../helpers/test-app';

const notes = pgTable('rr_notes', { id: serial('id').primaryKey(), title: varchar('title', { length: 200 }).notNull() });

const RUNS: readonly { mode: HandlerMode; options: ServerOptions }[] = [
  { mode: 'generic', options: {} },
  { mode: 'compiled', options: {} },
  { mode: 'bundle', options: {} },
  { mode: 'generic', options: { statementCache: false } },
];

describe('a withReplicas database on a PostgreSQL streaming replica', () => {
  let primary: PrivateDatabaseServer;
  let replica: StreamingReplica;

  beforeAll(async () => {
    primary = await startPrivateDatabaseServer('postgres');
    const pool = new Pool({ connectionString: primary.url, max: 1 });
    await pool.query('CREATE TABLE rr_notes (id serial PRIMARY KEY, title varchar(200) NOT NULL)');
    await pool.end();
    replica = await startStreamingReplica(primary.port);
  }, 120_000);
  afterAll(async () => {
    await replica?.destroy();
    await primary?.destroy();
  }, 60_000);

  for (const { mode, options } of RUNS) {
    /** Titles of this run's notes start with it: the runs share the table. */
    const label = options.statementCache === false ? `${mode}-uncached` : mode;
    describe(`${mode} handlers${options.statementCache === false ? ', statement cache off' : ''}`, () => {
      let server: TestServer;
      let pools: Pool[];

      beforeAll(async () => {
        clearRegistry();
        pools = [new Pool({ connectionString: primary.url, max: 2 }), new Pool({ connectionString: replica.url, max: 2 })];
        const db = withReplicas(drizzle(pools[0]), [drizzle(pools[1])]);
        const service = defineService({ name: 'replicated', db });
        service.resource({ name: 'notes', table: notes, id: notes.id }).use(
          crud({ access: 'public', fields: { id: { read: true, sort: true }, title: { read: true, create: true, update: true, filter: ['eq'], sort: true } } }),
        );
        server = await listen({ services: [service], ...options }, { mode });
      });
      afterAll(async () => {
        await server.close();
        for (const pool of pools) await pool.end();
        await replica.query('select pg_wal_replay_resume()');
        clearRegistry();
      });

      const call = async (method: string, path: string, body?: unknown) => {
        const response = await server.fetch(path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
        return { status: response.status, body: (await response.json()) as any };
      };
      /** Everything a client reads about a note, each through its own action. */
      const reads = async (id: number, title: string) => ({
        get: (await call('GET', `/api/notes/${id}`)).status,
        list: ((await call('POST', '/api/notes/query', { where: { title: { eq: title } } })).body.items as unknown[]).length,
        findOne: (await call('POST', '/api/notes/find-one', { where: { title: { eq: title } } })).body === null ? 'null' : 'row',
        count: (await call('POST', '/api/notes/count', { where: { title: { eq: title } } })).body.count,
        exists: (await call('POST', '/api/notes/exists', { where: { title: { eq: title } } })).body.exists,
      });

      it('answers writes from the primary at once, and reads from the replica, stale while its replay is paused', async () => {
        const first = await call('POST', '/api/notes', { title: `${label}-first` });
        expect(first.status).toBe(201);
        await replica.caughtUp(primary.url);
        expect(await reads(first.body.id, `${label}-first`)).toEqual({ get: 200, list: 1, findOne: 'row', count: 1, exists: true });

        await replica.query('select pg_wal_replay_pause()');
        // The write and its answer come from the primary: never stale.
        const second = await call('POST', '/api/notes', { title: `${label}-second` });
        expect(second).toEqual({ status: 201, body: { id: expect.any(Number), title: `${label}-second` } });
        const renamed = await call('PATCH', `/api/notes/${first.body.id}`, { title: `${label}-renamed` });
        expect(renamed).toEqual({ status: 200, body: { id: first.body.id, title: `${label}-renamed` } });
        // Reads come from the replica, which has not replayed either write.
        expect(await reads(second.body.id, `${label}-second`)).toEqual({ get: 404, list: 0, findOne: 'null', count: 0, exists: false });
        expect((await call('GET', `/api/notes/${first.body.id}`)).body).toEqual({ id: first.body.id, title: `${label}-first` });

        await replica.query('select pg_wal_replay_resume()');
        await replica.caughtUp(primary.url);
        expect(await reads(second.body.id, `${label}-second`)).toEqual({ get: 200, list: 1, findOne: 'row', count: 1, exists: true });
        expect((await call('GET', `/api/notes/${first.body.id}`)).body).toEqual({ id: first.body.id, title: `${label}-renamed` });
      }, 60_000);

      it('answers /_health 200 while the primary and the replica answer', async () => {
        expect(await call('GET', '/_health')).toMatchObject({ status: 200, body: { status: 'ok', checks: { replicated: 'ok' } } });
      });
    });
  }
});
