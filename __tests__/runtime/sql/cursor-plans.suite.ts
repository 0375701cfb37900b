// CONTRACT §10 on one database: the keyset condition of a cursor page walks the orderBy's index, so page 500
// costs what page 1 costs. The same 10,000 tasks and index as issue 18's plan check (order-by-plans.suite.ts);
// the suite captures the SQL of the page a cursor asks for, in each handler mode, cached or not, and asks the
// database for its plan: no scan of the table, no sort of the matches.
import { clearRegistry } from 'tessera-api';
import { BuiltBundle } from '../../helpers/bundle-loader';
import { openDatabase, type DialectName, type TestDatabase } from '../../helpers/databases';
import { HANDLER_MODES, listen } from '../../helpers/test-app';
import { defineTasks, expectIndexWalk, PLAN_RULES, recordingDb, seed, type CapturedQuery } from './order-by-plans.suite';

const JSON_BODY = { 'content-type': 'application/json' };

/**
 * The line of a good plan: the index serves the order. SQLite and MySQL/MariaDB search it as a range from the cursor
 * (their indexes end with the key); PostgreSQL's index is (created_at, id), its condition the range.
 */
const KEYSET_INDEX: Record<DialectName, RegExp> = {
  sqlite: /^SEARCH p_tasks USING INDEX p_tasks_created_at \(created_at[<>]=?\?\)$/,
  mysql: /^type range, key p_tasks_created_at,/,
  postgres: /^Index Scan( Backward)? using p_tasks_created_at_id on p_tasks$/,
};

export function cursorPlansSuite(dialect: DialectName): void {
  describe(`cursor pages on ${dialect}: the keyset condition walks the orderBy's index (CONTRACT §10)`, () => {
    const rules = { ...PLAN_RULES[dialect], usesIndex: KEYSET_INDEX[dialect] };
    let database: TestDatabase;
    const bundle = new BuiltBundle();

    beforeAll(async () => {
      database = await openDatabase(dialect, 'cursor_plans');
      await seed(database);
    });
    afterAll(async () => {
      bundle.remove();
      await database?.close();
      clearRegistry();
    });

    describe.each(HANDLER_MODES)('with %s handlers', (mode) => {
      it.each([
        ['ascending, through a cached statement', 'asc', true],
        ['ascending, through a query built per call', 'asc', false],
        ['descending, through a cached statement', 'desc', true],
        ['descending, through a query built per call', 'desc', false],
      ] as const)('walks the created_at index for the page after a cursor, %s', async (_title, direction, statementCache) => {
        const queries: CapturedQuery[] = [];
        const { planner } = defineTasks(recordingDb(database, queries), dialect);
        const server = await listen({ services: [planner], statementCache }, { mode, bundle });
        try {
          const input = { where: { priority: { gte: 3 } }, orderBy: [{ field: 'createdAt', direction }], limit: 20 };
          const ask = async (cursor: string | true) => {
            const response = await fetch(`${server.url}/api/tasks/query`, { method: 'POST', headers: JSON_BODY, body: JSON.stringify({ ...input, cursor }) });
            expect(response.status).toBe(200);
            return (await response.json()) as { items: { id: number }[]; nextCursor: string | null };
          };
          // Deep into the list: a cursor from the middle of the table.
          const first = await ask(true);
          const middle = await ask(first.nextCursor!);
          queries.length = 0;
          const page = await ask(middle.nextCursor!);
          expect(page.items).toHaveLength(20);
          expect(page.items[0].id).not.toBe(middle.items[19].id);

          const [keyset, ...others] = queries.filter((query) => /order by/i.test(query.sql));
          expect(others).toEqual([]);
          expect(keyset.sql).toMatch(/created_at.? (>|<)= /i);
          await expectIndexWalk(rules, database, keyset);
        } finally {
          await server.close();
        }
      });
    });
  });
}
