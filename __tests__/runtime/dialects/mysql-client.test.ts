// How the MySQL dialect runs statements on mysql2 (runtime/dialects/mysql-client.ts), on a real MariaDB. A cached select
// runs without Drizzle's per-call parameter and row mapping: it must answer exactly what Drizzle's own prepared query
// answers, log through Drizzle's logger, and fail as it does. A write's transaction commits, rolls back and returns its
// connection to the pool as Drizzle's `db.transaction` does.
import { count, eq, gte, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/mysql2';
import mysql from 'mysql2/promise';
import { OutsideScope } from '../../../runtime/dialects/dialect';
import { mysqlDialect } from '../../../runtime/dialects/mysql';
import { inTransaction, type QueryClient } from '../../../runtime/dialects/mysql-client';
import { columnPlaceholder } from '../../../runtime/dialects/column-placeholder';
import { openDatabase, type TestDatabase } from '../../helpers/databases';

let database: TestDatabase;

beforeAll(async () => {
  database = await openDatabase('mysql', 'mysql_client');
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

it("answers the rows Drizzle answers, each driver value decoded by its column; a DATETIME's Date as its JSON text", async () => {
  const values = { from: 1, limit: 10 };
  const expected = (await kindsFrom(database.db).prepare().execute(values)) as Record<string, unknown>[];
  const rows = await mysqlDialect.prepare(kindsFrom(database.db), 'kinds_from').execute(values);
  // mysql-datetime.ts: the rows are only ever serialized, and the date codec passes ISO text through.
  expect(rows).toEqual(expected.map((row) => ({ ...row, takenAt: row.takenAt instanceof Date ? row.takenAt.toISOString() : row.takenAt })));
  expect(rows).toHaveLength(3);
  expect(rows[2]).toEqual(expect.objectContaining({ takenAt: '2026-11-25T08:50:00.123Z', seenAt: '2026-01-02 03:04:05.678', valid: true, meta: { tags: ['a'], n: 1 } }));
  expect(rows[1]).toEqual(expect.objectContaining({ takenAt: null, valid: null, meta: null, amount: null }));
});

it("answers what Drizzle answers on a pool with a typeCast function of its own, which Drizzle's replaces", async () => {
  // mysql-text-dates.ts: mysql2's dateStrings would let the pool's function cast every value; Drizzle's replaces it.
  const url = new URL(process.env.TESSERA_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test');
  url.pathname += '_mysql_client';
  const pool = mysql.createPool({ uri: url.toString(), connectionLimit: 1, typeCast: () => 'cast by the pool' });
  try {
    const db = drizzle(pool, { mode: 'default' });
    const values = { from: 1, limit: 10 };
    const expected = (await kindsFrom(db).prepare().execute(values)) as Record<string, unknown>[];
    const rows = await mysqlDialect.prepare(kindsFrom(db), 'kinds_from').execute(values);
    expect(rows).toEqual(expected.map((row) => ({ ...row, takenAt: row.takenAt instanceof Date ? row.takenAt.toISOString() : row.takenAt })));
    expect(rows.map((row) => row.label)).toEqual(['false', 'empty', 'full']);
    const raw = mysqlDialect.rawStatement(db, 'select label, day from t_kinds where id = ?', 'kind_day');
    expect(await raw.rows([1])).toEqual([['full', '2026-02-03']]);
  } finally {
    await pool.end();
  }
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

describe('a write transaction', () => {
  /** A Drizzle database over its own pool of one connection: a connection not given back would stall the next call. */
  let pool: mysql.Pool;
  let db: any;
  beforeAll(() => {
    // The database openDatabase's namespace made: the test database's name and `_mysql_client`.
    const url = new URL(process.env.TESSERA_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test');
    url.pathname += '_mysql_client';
    pool = mysql.createPool({ uri: url.toString(), connectionLimit: 1 });
    db = drizzle(pool, { mode: 'default' });
  });
  afterAll(() => pool.end());

  const insertLabel = (connection: QueryClient, label: string) => connection.query({ sql: 'insert into t_kinds (label) values (?)' }, [label]);
  const labelled = async (label: string) => ((await pool.query('select count(*) as n from t_kinds where label = ?', [label]))[0] as { n: number }[])[0].n;

  it('commits what the write did and answers its result', async () => {
    expect(await inTransaction(db, async (connection) => (await insertLabel(connection, 'committed'), 'done'))).toBe('done');
    expect(await labelled('committed')).toBe(1);
  });

  it('rolls back and rethrows when the write fails, and gives its connection back every time', async () => {
    for (let attempt = 0; attempt < 3; attempt++) {
      const failing = inTransaction(db, async (connection) => {
        await insertLabel(connection, 'rolled back');
        await connection.query({ sql: 'insert into t_kinds (id, label) values (1, ?)' }, ['duplicate key']);
      });
      await expect(failing).rejects.toMatchObject({ errno: 1062 });
    }
    expect(await labelled('rolled back')).toBe(0);
  });

  it('answers null for a write that left the scope, rolled back', async () => {
    const outside = inTransaction(db, async (connection) => {
      await insertLabel(connection, 'outside');
      throw new OutsideScope();
    });
    await expect(outside).resolves.toBeNull();
    expect(await labelled('outside')).toBe(0);
  });

  it('fails with the pool\'s error when no connection can be had', async () => {
    const closed = mysql.createPool({ uri: 'mysql://root@127.0.0.1:1/test', connectionLimit: 1, connectTimeout: 2000 });
    try {
      const failure = await inTransaction(drizzle(closed, { mode: 'default' }), async () => 'never').catch((error: unknown) => error);
      expect(mysqlDialect.mapDriverError(failure)?.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      await closed.end();
    }
  });
});
