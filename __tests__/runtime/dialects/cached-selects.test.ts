// How the SQLite and PostgreSQL dialects run a cached select (runtime/dialects/sqlite-select.ts, postgres-select.ts),
// on better-sqlite3 and a real PostgreSQL: without Drizzle's per-call parameter and row mapping, each must answer
// exactly what Drizzle's own prepared query answers (table columns, and SQL expressions with their `mapWith` decoders
// as an include's nested rows and a count are), log through Drizzle's logger, and fail as Drizzle does.
// (MySQL's counterpart: mysql-client.test.ts.)
import { count, eq, gte, sql } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import type { Dialect } from '../../../runtime/dialects/dialect';
import { postgresDialect } from '../../../runtime/dialects/postgres';
import { sqliteDialect } from '../../../runtime/dialects/sqlite';
import { columnPlaceholder } from '../../../runtime/dialects/column-placeholder';
import { openDatabase, type TestDatabase } from '../../helpers/databases';

const cases = [
  { name: 'sqlite', dialect: sqliteDialect, withLogger: (client: any, logger: any) => drizzleSqlite(client, { logger }), placeholder: '\\?' },
  { name: 'postgres', dialect: postgresDialect, withLogger: (client: any, logger: any) => drizzlePostgres(client, { logger }), placeholder: '\\$\\d' },
] as const;

describe.each(cases)('a cached select on $name', ({ name, dialect, withLogger, placeholder }) => {
  let database: TestDatabase;
  const prepare = (query: unknown, statementName: string) => (dialect as Dialect).prepare(query as never, `${name}_${statementName}`);

  beforeAll(async () => {
    database = await openDatabase(name, 'cached_selects');
    await database.reset();
    await database.db.insert(database.tables.kinds).values([
      { label: 'full', takenAt: new Date('2026-11-25T08:50:00.123Z'), valid: true, ratio: 0.1, meta: { tags: ['a'], n: 1 } },
      { label: 'empty' },
      { label: 'false', valid: false, ratio: -2.5, meta: [] },
    ]);
  });

  afterAll(() => database.close());

  /** Every column of the kinds table from id `:from` on, newest id first, `:limit` rows, and SQL expressions decoded by their `mapWith`. */
  function kindsFrom(db: any) {
    const { kinds } = database.tables;
    const columns = Object.fromEntries(Object.keys(kinds).filter((key) => typeof kinds[key]?.mapFromDriverValue === 'function').map((key) => [key, kinds[key]]));
    return db
      .select({ ...columns, shout: sql`upper(${kinds.label})`.mapWith((value: string) => `${value}!`), nothing: sql`null`.mapWith(() => 'decoded') })
      .from(kinds)
      .where(gte(kinds.id, columnPlaceholder('from', kinds.id)))
      .orderBy(sql`${kinds.id} desc`)
      .limit(sql.placeholder('limit'));
  }

  it("answers the rows Drizzle's prepared query answers, each value decoded by its column or its expression's mapWith", async () => {
    const values = { from: 1, limit: 10 };
    const expected = await kindsFrom(database.db).prepare(`drizzle_${name}_kinds`).execute(values);
    const rows = (await prepare(kindsFrom(database.db), 'kinds_from').execute(values)) as Record<string, unknown>[];
    expect(rows).toEqual(expected);
    expect(rows).toHaveLength(3);
    expect(rows[2]).toEqual(expect.objectContaining({ takenAt: new Date('2026-11-25T08:50:00.123Z'), valid: true, meta: { tags: ['a'], n: 1 }, shout: 'FULL!' }));
    // A NULL stays null whatever the decoder (Drizzle's rule).
    expect(rows[1]).toEqual(expect.objectContaining({ takenAt: null, valid: null, meta: null, nothing: null }));
  });

  it('binds each call its own values, and refuses a call without one as Drizzle does', async () => {
    const statement = prepare(kindsFrom(database.db), 'kinds_from');
    expect((await statement.execute({ from: 3, limit: 10 })).map((row) => row.label)).toEqual(['false']);
    expect((await statement.execute({ from: 2, limit: 5 })).map((row) => row.label)).toEqual(['false', 'empty']);
    await expect(Promise.resolve().then(() => statement.execute({ from: 1 }))).rejects.toThrow('No value for placeholder "limit" was provided');
  });

  it('answers an aggregate, and a write with RETURNING', async () => {
    const { kinds } = database.tables;
    const counted = database.db.select({ total: count() }).from(kinds).where(eq(kinds.label, sql.placeholder('label')));
    expect(await prepare(counted, 'count_kinds').execute({ label: 'empty' })).toEqual([{ total: 1 }]);
    const inserted = database.db.insert(kinds).values({ label: sql.placeholder('label') }).returning({ id: kinds.id, label: kinds.label, valid: kinds.valid });
    expect(await prepare(inserted, 'insert_kind').execute({ label: 'written' })).toEqual([{ id: expect.any(Number), label: 'written', valid: null }]);
    await database.db.delete(kinds).where(eq(kinds.label, 'written'));
  });

  it("logs each call through Drizzle's logger, with its values", async () => {
    const logged: [string, unknown[]][] = [];
    const db = withLogger(database.db.$client, { logQuery: (query: string, params: unknown[]) => logged.push([query, params]) });
    await prepare(kindsFrom(db), 'kinds_from_logged').execute({ from: 2, limit: 4 });
    const text = new RegExp(`^select .* from "t_kinds" where "t_kinds"."id" >= ${placeholder} order by "t_kinds"."id" desc limit ${placeholder}$`);
    expect(logged).toEqual([[expect.stringMatching(text), [2, 4]]]);
  });

  it('fails with the driver error Tessera maps (on PostgreSQL inside the query error Drizzle throws)', async () => {
    const statement = prepare(kindsFrom(database.db), 'kinds_from_failing');
    await database.raw('ALTER TABLE t_kinds RENAME TO t_kinds_away');
    try {
      const failure = await Promise.resolve()
        .then(() => statement.execute({ from: 1, limit: 1 }))
        .catch((error: unknown) => error);
      if (name === 'postgres') expect(failure).toBeInstanceOf(DrizzleQueryError);
      expect(dialect.describeDriverError(failure)).toMatch(name === 'postgres' ? /^42P01/ : /no such table/);
    } finally {
      await database.raw('ALTER TABLE t_kinds_away RENAME TO t_kinds');
    }
  });
});
