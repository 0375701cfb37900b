// Issue 18 on one database: a list ordered by an indexed column, descending, with a filter the index does not
// cover. The primary-key tiebreaker runs the same way, so the database walks the index for 20 rows instead of
// sorting every match. The suite captures the SQL each handler mode sends (cached statement or not) and asks
// the database for its plan: EXPLAIN on MySQL/MariaDB and PostgreSQL, EXPLAIN QUERY PLAN on SQLite.
import type { Logger } from 'drizzle-orm';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { datetime, int, mysqlTable, varchar } from 'drizzle-orm/mysql-core';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { integer as pgInteger, pgTable, serial, timestamp, varchar as pgVarchar } from 'drizzle-orm/pg-core';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { clearRegistry, crud, defineService } from 'tessera-api';
import { BuiltBundle } from '../../helpers/bundle-loader';
import { openDatabase, type DialectName, type TestDatabase } from '../../helpers/databases';
import { HANDLER_MODES, listen } from '../../helpers/test-app';

/** Enough rows that every database prefers an index to reading the table (10,000, as in the issue). */
const ROW_COUNT = 10_000;
const BATCH = 1_000;
/** Three rows share each instant, so the tiebreaker decides the order within a page. */
const ROWS_PER_INSTANT = 3;
const FIRST_INSTANT = Date.UTC(2024, 0, 1);

/** Issue 18's list. */
const DESCENDING_PAGE = { where: { priority: { gte: 3 } }, orderBy: [{ field: 'createdAt', direction: 'desc' }], limit: 20 };

export const TABLES = {
  sqlite: sqliteTable('p_tasks', {
    id: integer('id').primaryKey({ autoIncrement: true }),
    title: text('title').notNull(),
    priority: integer('priority').notNull(),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
  }),
  mysql: mysqlTable('p_tasks', {
    id: int('id').primaryKey().autoincrement(),
    title: varchar('title', { length: 100 }).notNull(),
    priority: int('priority').notNull(),
    createdAt: datetime('created_at', { mode: 'date', fsp: 3 }).notNull(),
  }),
  postgres: pgTable('p_tasks', {
    id: serial('id').primaryKey(),
    title: pgVarchar('title', { length: 100 }).notNull(),
    priority: pgInteger('priority').notNull(),
    createdAt: timestamp('created_at', { mode: 'date', precision: 3, withTimezone: true }).notNull(),
  }),
};

export interface PlanRules {
  /** The table, its index on created_at and fresh statistics. */
  readonly ddl: readonly string[];
  readonly analyze: string;
  /** The plan of a query as lines of text. */
  explain(database: TestDatabase, query: CapturedQuery): Promise<string[]>;
  /** A line every good plan has: the index on created_at serves the order. */
  readonly usesIndex: RegExp;
  /** What no line may say: a scan of the whole table, or a sort of the matches. */
  readonly forbidden: RegExp;
}

export interface CapturedQuery {
  sql: string;
  params: unknown[];
}

/**
 * Per database. InnoDB's secondary indexes end with the primary key and SQLite's with the rowid, so an index on
 * created_at alone orders (created_at, id). A PostgreSQL index carries no key: the index an application declares
 * for this order there is (created_at, id), which PostgreSQL reads backwards as well as forwards.
 */
export const PLAN_RULES: Record<DialectName, PlanRules> = {
  sqlite: {
    ddl: [
      'DROP TABLE IF EXISTS p_tasks',
      'CREATE TABLE p_tasks (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, priority INTEGER NOT NULL, created_at INTEGER NOT NULL)',
      'CREATE INDEX p_tasks_created_at ON p_tasks (created_at)',
    ],
    analyze: 'ANALYZE',
    async explain(database, query) {
      const client = database.db.$client;
      return client.prepare(`EXPLAIN QUERY PLAN ${query.sql}`).all(...query.params).map((row: { detail: string }) => row.detail);
    },
    usesIndex: /^SCAN p_tasks USING INDEX p_tasks_created_at$/,
    forbidden: /TEMP B-TREE|^SCAN p_tasks$/,
  },
  mysql: {
    ddl: [
      'DROP TABLE IF EXISTS p_tasks',
      `CREATE TABLE p_tasks (id INT AUTO_INCREMENT PRIMARY KEY, title VARCHAR(100) NOT NULL, priority INT NOT NULL,
        created_at DATETIME(3) NOT NULL, KEY p_tasks_created_at (created_at)) ENGINE=InnoDB`,
    ],
    analyze: 'ANALYZE TABLE p_tasks',
    async explain(database, query) {
      const [rows] = await database.db.$client.query(`EXPLAIN ${query.sql}`, query.params);
      return (rows as Record<string, unknown>[]).map((row) => `type ${row.type}, key ${row.key}, rows ${row.rows}, ${row.Extra}`);
    },
    usesIndex: /^type (index|range), key p_tasks_created_at,/,
    forbidden: /type ALL|filesort|temporary/,
  },
  postgres: {
    ddl: [
      'DROP TABLE IF EXISTS p_tasks',
      'CREATE TABLE p_tasks (id SERIAL PRIMARY KEY, title VARCHAR(100) NOT NULL, priority INTEGER NOT NULL, created_at TIMESTAMPTZ(3) NOT NULL)',
      'CREATE INDEX p_tasks_created_at_id ON p_tasks (created_at, id)',
    ],
    analyze: 'ANALYZE p_tasks',
    async explain(database, query) {
      const { rows } = await database.db.$client.query(`EXPLAIN ${query.sql}`, query.params);
      return rows.map((row: Record<string, string>) => row['QUERY PLAN'].trim().replace(/^->\s+/, '').replace(/\s+\(cost=.*$/, ''));
    },
    usesIndex: /^Index Scan( Backward)? using p_tasks_created_at_id on p_tasks$/,
    forbidden: /Sort|Seq Scan/,
  },
};

/** A drizzle db over the test database's client that records every query it sends. */
export function recordingDb(database: TestDatabase, queries: CapturedQuery[]): any {
  const logger: Logger = { logQuery: (sql, params) => void queries.push({ sql, params }) };
  const client = database.db.$client;
  if (database.dialect === 'sqlite') return drizzleSqlite(client, { logger });
  if (database.dialect === 'mysql') return drizzleMysql(client, { mode: 'default', logger });
  return drizzlePostgres(client, { logger });
}

export function defineTasks(db: any, dialect: DialectName) {
  clearRegistry();
  const planner = defineService({ name: 'planner', db });
  const table = TABLES[dialect] as any;
  const tasks = planner.resource({ name: 'tasks', table, id: table.id }).use(
    crud({
      access: 'public',
      fields: {
        id: { read: true, sort: true },
        title: { read: true },
        priority: { read: true, filter: ['gte'] },
        createdAt: { read: true, sort: true },
      },
    }),
  );
  return { planner, tasks };
}

export async function seed(database: TestDatabase): Promise<void> {
  const rules = PLAN_RULES[database.dialect];
  for (const statement of rules.ddl) await database.raw(statement);
  const table = TABLES[database.dialect] as any;
  for (let start = 1; start <= ROW_COUNT; start += BATCH) {
    const rows = [];
    for (let n = start; n < start + BATCH; n++) {
      rows.push({ title: `task ${n}`, priority: (n % 5) + 1, createdAt: new Date(FIRST_INSTANT + Math.floor(n / ROWS_PER_INSTANT) * 60_000) });
    }
    const insert = database.db.insert(table).values(rows);
    if (database.dialect === 'sqlite') insert.run();
    else await insert;
  }
  await database.raw(rules.analyze);
}

/** Rows in created_at order, ties in id order, both in `direction`; every one matching the filter. */
function expectOrdered(rows: { id: number; priority: number; createdAt: string }[], direction: 'asc' | 'desc'): void {
  const sign = direction === 'desc' ? -1 : 1;
  for (let index = 1; index < rows.length; index++) {
    const [before, after] = [rows[index - 1], rows[index]];
    const byTime = sign * (Date.parse(after.createdAt) - Date.parse(before.createdAt));
    expect([index, byTime > 0 || (byTime === 0 && sign * (after.id - before.id) > 0)]).toEqual([index, true]);
  }
  expect(rows.every((row) => row.priority >= 3)).toBe(true);
}

/** The database's plan for the captured query walks the created_at index and sorts nothing. */
export async function expectIndexWalk(rules: PlanRules, database: TestDatabase, query: CapturedQuery): Promise<void> {
  const plan = await rules.explain(database, query);
  const verdict = { plan, usesIndex: plan.some((line) => rules.usesIndex.test(line)), forbidden: plan.filter((line) => rules.forbidden.test(line)) };
  expect(verdict).toEqual({ plan, usesIndex: true, forbidden: [] });
}

export function orderByPlansSuite(dialect: DialectName): void {
  describe(`list ordering on ${dialect}: the key tiebreaker follows the last sort direction (issue 18)`, () => {
    const rules = PLAN_RULES[dialect];
    let database: TestDatabase;
    const bundle = new BuiltBundle();

    beforeAll(async () => {
      database = await openDatabase(dialect, 'plans');
      await seed(database);
    });
    afterAll(async () => {
      bundle.remove();
      await database?.close();
      clearRegistry();
    });

    describe.each(HANDLER_MODES)('with %s handlers', (mode) => {
      it.each([
        ['a cached statement', true],
        ['a query built per call', false],
      ])('walks the created_at index for a descending page, through %s', async (_title, statementCache) => {
        const queries: CapturedQuery[] = [];
        const { planner } = defineTasks(recordingDb(database, queries), dialect);
        const server = await listen({ services: [planner], statementCache }, { mode, bundle });
        try {
          queries.length = 0; // construction-time statements are not the request's
          const response = await fetch(`${server.url}/api/tasks/query`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(DESCENDING_PAGE) });
          expect(response.status).toBe(200);
          const { items } = (await response.json()) as { items: { id: number; priority: number; createdAt: string }[] };
          expect(items).toHaveLength(20);
          expectOrdered(items, 'desc');

          const page = queries.filter((query) => /order by/i.test(query.sql));
          expect(page).toHaveLength(1);
          expect(page[0].sql).toMatch(/order by .*created_at.* desc, .*id.* desc/i);
          await expectIndexWalk(rules, database, page[0]);
        } finally {
          await server.close();
        }
      });
    });

    it('walks the index forwards for an ascending page, the key ascending too (in-process)', async () => {
      const queries: CapturedQuery[] = [];
      const { tasks } = defineTasks(recordingDb(database, queries), dialect);
      const ascending = { ...DESCENDING_PAGE, orderBy: [{ field: 'createdAt', direction: 'asc' }] };
      // In-process: the same query step every handler mode runs. JSON, as over HTTP (dates as ISO strings).
      const answer = JSON.parse(JSON.stringify(await (tasks as any).list({ input: ascending })));
      expect(answer.items).toHaveLength(20);
      expectOrdered(answer.items, 'asc');
      const [page] = queries.filter((query) => /order by/i.test(query.sql));
      expect(page.sql).toMatch(/order by .*created_at.* asc, .*id.* asc/i);
      await expectIndexWalk(rules, database, page);
    });
  });
}
