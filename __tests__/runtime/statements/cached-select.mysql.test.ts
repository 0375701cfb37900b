// A cached select on MySQL runs without Drizzle's per-call parameter and row mapping (prepared-select.ts): it
// must answer exactly what Drizzle's own prepared query answers, log through Drizzle's logger, and fail as it does.
import { count, eq, gte, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/mysql2';
import { mysqlDialect } from '../../../runtime/dialects/mysql';
import { columnPlaceholder } from '../../../runtime/statements/column-placeholder';
import { openDatabase, type TestDatabase } from '../../helpers/databases';

let database: TestDatabase;

beforeAll(async () => {
  database = await openDatabase('mysql', 'cached_select');
  await database.reset();
  const { kinds } = database.tables;
  await database.db.insert(kinds).values([
    { label: 'full', takenAt: new Date('2026-11-25T08:50:00.123Z'), seenAt: '2026-01-02 03:04:05.678', day: '2026-02-03', valid: true, ratio: 0.1, amount: '12.50', meta: { tags: ['a'], n: 1 } },
    { label: 'empty' },
    { label: 'false', valid: false, ratio: -2.5, amount: '0.00', meta: [] },
  ]);
});

afterAll(() => database.close());

/** Every column of the kinds table from id `:from` on, newest id first, `:limit` rows. */
function kindsFrom(db: any) {
  const { kinds } = database.tables;
  return db
    .select({ id: kinds.id, label: kinds.label, takenAt: kinds.takenAt, seenAt: kinds.seenAt, day: kinds.day, valid: kinds.valid, ratio: kinds.ratio, amount: kinds.amount, meta: kinds.meta })
    .from(kinds)
    .where(gte(kinds.id, columnPlaceholder('from', kinds.id)))
    .orderBy(sql`${kinds.id} desc`)
    .limit(sql.placeholder('limit'));
}

it('answers the rows Drizzle answers, each driver value decoded by its column', async () => {
  const values = { from: 1, limit: 10 };
  const expected = await kindsFrom(database.db).prepare().execute(values);
  const rows = await mysqlDialect.prepare(kindsFrom(database.db), 'kinds_from').execute(values);
  expect(rows).toEqual(expected);
  expect(rows).toHaveLength(3);
  expect(rows[2]).toEqual(expect.objectContaining({ takenAt: new Date('2026-11-25T08:50:00.123Z'), valid: true, meta: { tags: ['a'], n: 1 } }));
  expect(rows[1]).toEqual(expect.objectContaining({ takenAt: null, valid: null, meta: null, amount: null }));
});

it('binds each call its own values', async () => {
  const statement = mysqlDialect.prepare(kindsFrom(database.db), 'kinds_from');
  expect((await statement.execute({ from: 3, limit: 10 })).map((row) => row.label)).toEqual(['false']);
  expect((await statement.execute({ from: 1, limit: 1 })).map((row) => row.label)).toEqual(['false']);
  expect((await statement.execute({ from: 2, limit: 5 })).map((row) => row.label)).toEqual(['false', 'empty']);
});

it('refuses a call without a placeholder value, as Drizzle does', async () => {
  const statement = mysqlDialect.prepare(kindsFrom(database.db), 'kinds_from');
  await expect(Promise.resolve().then(() => statement.execute({ from: 1 }))).rejects.toThrow('No value for placeholder "limit" was provided');
});

it('answers a selection of SQL expressions through Drizzle', async () => {
  const { kinds } = database.tables;
  const query = database.db.select({ total: count() }).from(kinds).where(eq(kinds.label, sql.placeholder('label')));
  expect(await mysqlDialect.prepare(query, 'count_kinds').execute({ label: 'empty' })).toEqual([{ total: 1 }]);
});

it("logs each call through Drizzle's logger, with its values", async () => {
  const logged: [string, unknown[]][] = [];
  const db = drizzle(database.db.$client, { mode: 'default', logger: { logQuery: (query, params) => logged.push([query, params]) } });
  await mysqlDialect.prepare(kindsFrom(db), 'kinds_from').execute({ from: 2, limit: 4 });
  expect(logged).toEqual([[expect.stringMatching(/^select .* from `t_kinds` where `t_kinds`.`id` >= \? order by `t_kinds`.`id` desc limit \?$/), [2, 4]]]);
});

it('fails with the driver error Tessera maps and logs without values', async () => {
  const statement = mysqlDialect.prepare(kindsFrom(database.db), 'kinds_from');
  await database.raw('RENAME TABLE t_kinds TO t_kinds_away');
  try {
    const failure = await Promise.resolve(statement.execute({ from: 1, limit: 1 })).catch((error: unknown) => error);
    expect(mysqlDialect.describeDriverError(failure)).toMatch(/^1146: no such table: .*t_kinds$/);
  } finally {
    await database.raw('RENAME TABLE t_kinds_away TO t_kinds');
  }
});
