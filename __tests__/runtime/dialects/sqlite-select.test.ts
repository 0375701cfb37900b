// How the SQLite dialect runs a cached select (runtime/dialects/sqlite-select.ts), on better-sqlite3: without Drizzle's
// per-call parameter and row mapping, it must answer exactly what Drizzle's own prepared query answers (table columns
// and SQL expressions with their `mapWith` decoders, as an include's rows and counts are), synchronously, log through
// Drizzle's logger, and leave statements that answer no rows to Drizzle.
import { count, eq, gte, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { sqliteDialect } from '../../../runtime/dialects/sqlite';
import { columnPlaceholder } from '../../../runtime/dialects/column-placeholder';
import { openDatabase, type TestDatabase } from '../../helpers/databases';

let database: TestDatabase;

beforeAll(async () => {
  database = await openDatabase('sqlite', 'sqlite_select');
  await database.reset();
  const { kinds } = database.tables;
  await database.db.insert(kinds).values([
    { label: 'full', takenAt: new Date('2026-11-25T08:50:00.123Z'), seenAt: new Date('2026-01-02T03:04:05.000Z'), valid: true, ratio: 0.1, meta: { tags: ['a'], n: 1 } },
    { label: 'empty' },
    { label: 'false', valid: false, ratio: -2.5, meta: [] },
  ]);
});

afterAll(() => database.close());

/** Every column of the kinds table from id `:from` on, newest id first, `:limit` rows, and an SQL expression decoded by its `mapWith`. */
function kindsFrom(db: any) {
  const { kinds } = database.tables;
  return db
    .select({
      id: kinds.id,
      label: kinds.label,
      takenAt: kinds.takenAt,
      seenAt: kinds.seenAt,
      valid: kinds.valid,
      ratio: kinds.ratio,
      meta: kinds.meta,
      shout: sql`upper(${kinds.label})`.mapWith((value: string) => `${value}!`),
      nothing: sql`null`.mapWith(() => 'decoded'),
    })
    .from(kinds)
    .where(gte(kinds.id, columnPlaceholder('from', kinds.id)))
    .orderBy(sql`${kinds.id} desc`)
    .limit(sql.placeholder('limit'));
}

it("answers, synchronously, the rows Drizzle's prepared query answers, each value decoded by its column or its expression's mapWith", async () => {
  const values = { from: 1, limit: 10 };
  const expected = await kindsFrom(database.db).prepare().execute(values);
  const rows = sqliteDialect.prepare(kindsFrom(database.db), 'kinds_from').execute(values);
  expect(Array.isArray(rows)).toBe(true);
  expect(rows).toEqual(expected);
  expect(rows).toHaveLength(3);
  expect((rows as Record<string, unknown>[])[2]).toEqual(expect.objectContaining({ takenAt: new Date('2026-11-25T08:50:00.123Z'), valid: true, meta: { tags: ['a'], n: 1 }, shout: 'FULL!' }));
  // A NULL stays null whatever the decoder (Drizzle's rule).
  expect((rows as Record<string, unknown>[])[1]).toEqual(expect.objectContaining({ takenAt: null, valid: null, meta: null, nothing: null }));
});

it('binds each call its own values, and refuses a call without one as Drizzle does', async () => {
  const statement = sqliteDialect.prepare(kindsFrom(database.db), 'kinds_from');
  expect((await statement.execute({ from: 3, limit: 10 })).map((row) => row.label)).toEqual(['false']);
  expect((await statement.execute({ from: 2, limit: 5 })).map((row) => row.label)).toEqual(['false', 'empty']);
  expect(() => statement.execute({ from: 1 })).toThrow('No value for placeholder "limit" was provided');
});

it('answers an aggregate, and a write with RETURNING, as Drizzle does', async () => {
  const { kinds } = database.tables;
  const counted = database.db.select({ total: count() }).from(kinds).where(eq(kinds.label, sql.placeholder('label')));
  expect(await sqliteDialect.prepare(counted, 'count_kinds').execute({ label: 'empty' })).toEqual([{ total: 1 }]);
  const inserted = database.db.insert(kinds).values({ label: sql.placeholder('label') as never }).returning({ id: kinds.id, label: kinds.label, valid: kinds.valid });
  const [row] = await sqliteDialect.prepare(inserted, 'insert_kind').execute({ label: 'written' });
  expect(row).toEqual({ id: expect.any(Number), label: 'written', valid: null });
  await database.db.delete(kinds).where(eq(kinds.label, 'written'));
});

it("logs each call through Drizzle's logger, with its values", async () => {
  const logged: [string, unknown[]][] = [];
  const db = drizzle(database.db.$client, { logger: { logQuery: (query, params) => logged.push([query, params]) } });
  await sqliteDialect.prepare(kindsFrom(db), 'kinds_from').execute({ from: 2, limit: 4 });
  expect(logged).toEqual([[expect.stringMatching(/^select .* from "t_kinds" where "t_kinds"."id" >= \? order by "t_kinds"."id" desc limit \?$/), [2, 4]]]);
});
