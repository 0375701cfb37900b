// CONTRACT §10 on one database: paging 10,000 rows by cursor while other rows are inserted and deleted between
// pages never answers a row twice and never skips one that existed throughout (an offset does both: a delete
// behind it skips a row, an insert behind it repeats one). The order is by a column with many ties, descending,
// so the primary-key tiebreaker carries the cursor within a tie.
import { int, mysqlTable } from 'drizzle-orm/mysql-core';
import { integer as pgInteger, pgTable, serial } from 'drizzle-orm/pg-core';
import { integer, sqliteTable } from 'drizzle-orm/sqlite-core';
import { clearRegistry, crud, defineService } from 'tessera-api';
import { openDatabase, type DialectName, type TestDatabase } from '../../helpers/databases';
import { listen, type TestServer } from '../../helpers/test-app';
import { Lcg } from '../../../fixtures/bench/lcg';

const ROW_COUNT = 10_000;
const PAGE = 100;
/** About 40 rows share a score. */
const SCORES = 250;
/** Between two pages: this many rows inserted and deleted, anywhere in the order. */
const CHURN = 5;

const TABLES = {
  sqlite: sqliteTable('c_churn', { id: integer('id').primaryKey({ autoIncrement: true }), score: integer('score').notNull() }),
  mysql: mysqlTable('c_churn', { id: int('id').primaryKey().autoincrement(), score: int('score').notNull() }),
  postgres: pgTable('c_churn', { id: serial('id').primaryKey(), score: pgInteger('score').notNull() }),
};

const DDL: Record<DialectName, readonly string[]> = {
  sqlite: ['DROP TABLE IF EXISTS c_churn', 'CREATE TABLE c_churn (id INTEGER PRIMARY KEY AUTOINCREMENT, score INTEGER NOT NULL)', 'CREATE INDEX c_churn_score ON c_churn (score)'],
  mysql: ['DROP TABLE IF EXISTS c_churn', 'CREATE TABLE c_churn (id INT AUTO_INCREMENT PRIMARY KEY, score INT NOT NULL, KEY c_churn_score (score)) ENGINE=InnoDB'],
  postgres: ['DROP TABLE IF EXISTS c_churn', 'CREATE TABLE c_churn (id SERIAL PRIMARY KEY, score INTEGER NOT NULL)', 'CREATE INDEX c_churn_score ON c_churn (score, id)'],
};

export function cursorChurnSuite(dialect: DialectName): void {
  describe(`cursor pages on ${dialect} while rows come and go (CONTRACT §10)`, () => {
    let database: TestDatabase;
    let server: TestServer;

    beforeAll(async () => {
      database = await openDatabase(dialect, 'cursor_churn');
      for (const statement of DDL[dialect]) await database.raw(statement);
      const random = new Lcg(26);
      const values = Array.from({ length: ROW_COUNT }, () => `(${random.next() % SCORES})`).join(', ');
      await database.raw(`INSERT INTO c_churn (score) VALUES ${values}`); // one multi-row insert
      clearRegistry();
      const churn = defineService({ name: 'churn', db: database.db });
      const table = TABLES[dialect] as any;
      churn.resource({ name: 'rows', table, id: table.id }).use(crud({ access: 'public', fields: { id: { read: true, sort: true }, score: { read: true, sort: true } }, maxLimit: PAGE }));
      server = await listen({ services: [churn] });
    });
    afterAll(async () => {
      await server?.close();
      await database?.close();
      clearRegistry();
    });

    it(`pages ${ROW_COUNT} rows ${PAGE} at a time, ${CHURN} inserted and ${CHURN} deleted between pages: none twice, none of the lasting ones skipped`, async () => {
      const ids = async (sqlText: string) => ((await database.raw(sqlText)) as { id: number }[]).map((row) => Number(row.id));
      const lasting = new Set(await ids('SELECT id FROM c_churn'));
      expect(lasting.size).toBe(ROW_COUNT);
      const random = new Lcg(29);
      const seen = new Set<number>();
      const twice: number[] = [];
      let cursor: string | true | null = true;
      let pages = 0;
      while (cursor !== null) {
        const response = await fetch(`${server.url}/api/rows/query`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ orderBy: [{ field: 'score', direction: 'desc' }], limit: PAGE, cursor }),
        });
        expect(response.status).toBe(200);
        const page = (await response.json()) as { items: { id: number; score: number }[]; nextCursor: string | null };
        for (const row of page.items) {
          if (seen.has(row.id)) twice.push(row.id);
          seen.add(row.id);
        }
        cursor = page.nextCursor;
        pages++;
        // Rows come and go before and after the cursor: new scores anywhere, deletes of rows seen and not yet seen.
        const inserted = Array.from({ length: CHURN }, () => `(${random.next() % SCORES})`).join(', ');
        await database.raw(`INSERT INTO c_churn (score) VALUES ${inserted}`);
        const victims = await ids(`SELECT id FROM c_churn ORDER BY id LIMIT ${CHURN} OFFSET ${random.next() % (ROW_COUNT - CHURN)}`);
        await database.raw(`DELETE FROM c_churn WHERE id IN (${victims.join(', ')})`);
        for (const id of victims) lasting.delete(id);
      }
      const skipped = [...lasting].filter((id) => !seen.has(id));
      expect({ twice, skipped }).toEqual({ twice: [], skipped: [] });
      expect(pages).toBeGreaterThan(ROW_COUNT / PAGE - 10);
      expect(lasting.size).toBeGreaterThan(ROW_COUNT - pages * CHURN - 1);
    });
  });
}
