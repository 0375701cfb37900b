// How the PostgreSQL dialect runs a cached select (runtime/dialects/postgres-select.ts), on a real PostgreSQL: without
// Drizzle's per-call parameter and row mapping, it must answer exactly what Drizzle's own prepared query answers (table
// columns and SQL expressions with their `mapWith` decoders, as an include's nested rows are), log through Drizzle's
// logger, and fail with the error Drizzle would throw.
import { count, eq, gte, sql } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { drizzle } from 'drizzle-orm/node-postgres';
import { postgresDialect } from '../../../runtime/dialects/postgres';
import { columnPlaceholder } from '../../../runtime/dialects/column-placeholder';
import { openDatabase, type TestDatabase } from '../../helpers/databases';

let database: TestDatabase;

beforeAll(async () => {
  database = await openDatabase('postgres', 'postgres_select');
  await database.reset();
  const { kinds } = database.tables;
  await database.db.insert(kinds).values([
    { label: 'full', takenAt: new Date('2026-11-25T08:50:00.123Z'), seenAt: '2026-01-02 03:04:05.678', day: '2026-02-03', valid: true, ratio: 0.1, amount: '12.50', meta: { tags: ['a'], n: 1 } },
    { label: 'empty' },
    { label: 'false', valid: false, ratio: -2.5, amount: '0.00', meta: [] },
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
      day: kinds.day,
      valid: kinds.valid,
      ratio: kinds.ratio,
      amount: kinds.amount,
      meta: kinds.meta,
      shout: sql`upper(${kinds.label})`.mapWith((value: string) => `${value}!`),
      nothing: sql`null::text`.mapWith(() => 'decoded'),
    })
    .from(kinds)
    .where(gte(kinds.id, columnPlaceholder('from', kinds.id)))
    .orderBy(sql`${kinds.id} desc`)
    .limit(sql.placeholder('limit'));
}

it("answers the rows Drizzle's prepared query answers, each value decoded by its column or its expression's mapWith", async () => {
  const values = { from: 1, limit: 10 };
  const expected = await kindsFrom(database.db).prepare('drizzle_kinds_from').execute(values);
  const rows = await postgresDialect.prepare(kindsFrom(database.db), 'kinds_from').execute(values);
  expect(rows).toEqual(expected);
  expect(rows).toHaveLength(3);
  expect(rows[2]).toEqual(expect.objectContaining({ takenAt: new Date('2026-11-25T08:50:00.123Z'), seenAt: '2026-01-02 03:04:05.678', amount: '12.50', meta: { tags: ['a'], n: 1 }, shout: 'FULL!' }));
  // A NULL stays null whatever the decoder (Drizzle's rule).
  expect(rows[1]).toEqual(expect.objectContaining({ takenAt: null, valid: null, meta: null, nothing: null }));
});

it('binds each call its own values, through the columns’ encoders', async () => {
  const statement = postgresDialect.prepare(kindsFrom(database.db), 'kinds_from');
  expect((await statement.execute({ from: 3, limit: 10 })).map((row) => row.label)).toEqual(['false']);
  expect((await statement.execute({ from: 1, limit: 1 })).map((row) => row.label)).toEqual(['false']);
  expect((await statement.execute({ from: 2, limit: 5 })).map((row) => row.label)).toEqual(['false', 'empty']);
  await expect(Promise.resolve().then(() => statement.execute({ from: 1 }))).rejects.toThrow('No value for placeholder "limit" was provided');
});

it('answers an aggregate', async () => {
  const { kinds } = database.tables;
  const query = database.db.select({ total: count() }).from(kinds).where(eq(kinds.label, sql.placeholder('label')));
  expect(await postgresDialect.prepare(query, 'count_kinds').execute({ label: 'empty' })).toEqual([{ total: 1 }]);
});

it("logs each call through Drizzle's logger, with its values", async () => {
  const logged: [string, unknown[]][] = [];
  const db = drizzle(database.db.$client, { logger: { logQuery: (query, params) => logged.push([query, params]) } });
  await postgresDialect.prepare(kindsFrom(db), 'kinds_from_logged').execute({ from: 2, limit: 4 });
  expect(logged).toEqual([[expect.stringMatching(/^select .* from "t_kinds" where "t_kinds"."id" >= \$1 order by "t_kinds"."id" desc limit \$2$/), [2, 4]]]);
});

it('fails as Drizzle does: its query error around the driver error Tessera maps', async () => {
  const statement = postgresDialect.prepare(kindsFrom(database.db), 'kinds_from_failing');
  await database.raw('ALTER TABLE t_kinds RENAME TO t_kinds_away');
  try {
    const failure = await Promise.resolve(statement.execute({ from: 1, limit: 1 })).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DrizzleQueryError);
    expect(postgresDialect.describeDriverError(failure)).toMatch(/^42P01/);
  } finally {
    await database.raw('ALTER TABLE t_kinds_away RENAME TO t_kinds');
  }
});
