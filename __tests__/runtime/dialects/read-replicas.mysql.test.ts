// A Drizzle withReplicas database of mysql-core as a service's db, with two replicas picked in turn by a custom
// getReplica: in every handler mode, reads reach the replicas (each call the one withReplicas picks, cached
// statements included) and never the primary; writes with their read-back reach the primary only. The "replicas"
// are pools of their own on the test database, told apart by the connections each hands out.
import { drizzle } from 'drizzle-orm/mysql2';
import { int, mysqlTable, varchar, withReplicas } from 'drizzle-orm/mysql-core';
import mysql from 'mysql2/promise';
import { crud, defineService } from 'tessera-api';
import { MYSQL_URL } from '../../helpers/bundles';
import { clearRegistry, HANDLER_MODES, listen, type TestServer } from '../../helpers/test-app';

const items = mysqlTable('rr_items', { id: int('id').primaryKey().autoincrement(), title: varchar('title', { length: 200 }).notNull() });

describe('a mysql-core withReplicas database with two replicas', () => {
  beforeAll(async () => {
    const connection = await mysql.createConnection(MYSQL_URL);
    await connection.query('DROP TABLE IF EXISTS rr_items');
    await connection.query('CREATE TABLE rr_items (id int NOT NULL AUTO_INCREMENT PRIMARY KEY, title varchar(200) NOT NULL)');
    await connection.end();
  });

  for (const mode of HANDLER_MODES) {
    describe(`${mode} handlers`, () => {
      let server: TestServer;
      const pools = { primary: mysql.createPool({ uri: MYSQL_URL, connectionLimit: 2 }), first: mysql.createPool({ uri: MYSQL_URL, connectionLimit: 2 }), second: mysql.createPool({ uri: MYSQL_URL, connectionLimit: 2 }) };
      const used = { primary: 0, first: 0, second: 0 };

      beforeAll(async () => {
        clearRegistry();
        for (const name of ['primary', 'first', 'second'] as const) pools[name].pool.on('acquire', () => used[name]++);
        let turn = 0;
        const db = withReplicas(drizzle(pools.primary), [drizzle(pools.first), drizzle(pools.second)], (replicas) => replicas[turn++ % replicas.length]);
        const service = defineService({ name: 'replicated', db });
        service.resource({ name: 'items', table: items, id: items.id }).use(
          crud({ access: 'public', fields: { id: { read: true, sort: true }, title: { read: true, create: true, update: true, filter: ['eq'], sort: true } } }),
        );
        server = await listen({ services: [service] }, { mode });
      });
      afterAll(async () => {
        await server.close();
        for (const pool of Object.values(pools)) await pool.end();
        clearRegistry();
      });

      const call = async (method: string, path: string, body?: unknown) => {
        const response = await server.fetch(path, { method, headers: body === undefined ? {} : { 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
        return { status: response.status, body: (await response.json()) as any };
      };
      const usedBy = async (calls: () => Promise<void>) => {
        used.primary = used.first = used.second = 0;
        await calls();
        return { ...used };
      };

      it('writes, and reads their rows back, on the primary only', async () => {
        const figures = await usedBy(async () => {
          const created = await call('POST', '/api/items', { title: `${mode}-written` });
          expect(created).toEqual({ status: 201, body: { id: expect.any(Number), title: `${mode}-written` } });
          expect(await call('PATCH', `/api/items/${created.body.id}`, { title: `${mode}-renamed` })).toEqual({ status: 200, body: { id: created.body.id, title: `${mode}-renamed` } });
          expect((await call('DELETE', `/api/items/${created.body.id}`)).status).toBe(200);
        });
        expect(figures).toEqual({ primary: expect.any(Number), first: 0, second: 0 });
        expect(figures.primary).toBeGreaterThanOrEqual(3);
      });

      it('reads (get, list, findOne, count, exists) on the replica withReplicas picks for each call, never the primary', async () => {
        const created = await call('POST', '/api/items', { title: `${mode}-read` });
        const figures = await usedBy(async () => {
          for (let round = 0; round < 2; round++) {
            expect((await call('GET', `/api/items/${created.body.id}`)).body).toEqual(created.body);
            expect((await call('POST', '/api/items/query', { where: { title: { eq: `${mode}-read` } } })).body).toEqual({ items: [created.body] });
            expect((await call('POST', '/api/items/find-one', { where: { title: { eq: `${mode}-read` } } })).body).toEqual(created.body);
            expect((await call('POST', '/api/items/count', {})).body.count).toBeGreaterThan(0);
            expect((await call('POST', '/api/items/exists', { where: { title: { eq: `${mode}-read` } } })).body).toEqual({ exists: true });
          }
        });
        // Ten reads, each on one replica, both taking turns (getReplica also runs when a statement is first built,
        // so the turns need not fall five and five).
        expect(figures.primary).toBe(0);
        expect(figures.first + figures.second).toBe(10);
        expect(Math.min(figures.first, figures.second)).toBeGreaterThanOrEqual(3);
      });
    });
  }
});
