// The statement cache's statements on a real MariaDB (runtime/dialects/mysql-statements.ts): prepared by the server
// once per connection and run on the binary protocol, answering exactly what the text protocol answers; columns
// whose binary value differs from their text (FLOAT, TIME) keep the text protocol; a statement the cache drops is
// closed on the server. Counted with the session's own status counters, on one connection. A private server of its
// own for what needs the server's settings changed or the server frozen.
import mysql from 'mysql2';
import { drizzle } from 'drizzle-orm/mysql2';
import { applyMysqlTimeouts } from '../../../runtime/dialects/mysql-pool';
import { serverPrepared } from '../../../runtime/dialects/mysql-statements';
import { StatementCache } from '../../../runtime/sql/statement-cache';
import { MYSQL_URL } from '../../helpers/databases';
import { startPrivateDatabaseServer, type PrivateDatabaseServer } from '../../helpers/private-database-server';

const TABLE = 'mysql_statements_kinds';
const COLUMNS = 'id, label, amount, ratio, taken_at, day, meta, serial';
const TEXT_ONLY_COLUMNS = 'id, single, span';

let connection: mysql.Connection;
let db: { $client: unknown };

/** mysql2's callback query on the test's one connection. */
function query<T = unknown>(sql: string, values: unknown[] = [], options: object = {}): Promise<T> {
  return new Promise((resolve, reject) => connection.query({ sql, ...options }, values, (error, rows) => (error ? reject(error) : resolve(rows as T))));
}

/** This session's statement counters: prepares, executes, closes, and the statements it holds. */
async function counters(): Promise<Record<string, number>> {
  const rows = await query<{ Variable_name: string; Value: string }[]>("show session status where variable_name in ('Com_stmt_prepare', 'Com_stmt_execute', 'Com_stmt_close')");
  return Object.fromEntries(rows.map((row) => [row.Variable_name, Number(row.Value)]));
}

beforeAll(async () => {
  connection = mysql.createConnection({ uri: MYSQL_URL, timezone: 'Z' });
  db = drizzle(connection) as unknown as { $client: unknown };
  await query(`drop table if exists ${TABLE}`);
  await query(
    `create table ${TABLE} (id int primary key, label varchar(40), amount decimal(30, 10), ratio double, taken_at datetime(3), day date, meta json, serial bigint, single float, span time(3))`,
  );
  await query(`insert into ${TABLE} values (1, 'full', '12345678901234567890.0123456789', ?, '2026-11-25 08:50:00.123', '2026-02-03', '{"a": [1, 2.5]}', -5, 123456.789, '-838:59:59.5'),
    (2, null, null, null, null, null, null, null, 1.1, '12:00:00')`, [0.1 + 0.2]);
});

afterAll(async () => {
  await query(`drop table if exists ${TABLE}`);
  await new Promise((resolve) => connection.end(resolve));
});

/** What the text protocol answers for the same statement (how a statement prepared per call runs). */
const textRows = (sql: string, values: unknown[]) => query<unknown[][]>(sql, values, { rowsAsArray: true, dateStrings: true });

it('prepares a statement once and runs it on the binary protocol, answering what the text protocol answers', async () => {
  const sql = `select ${COLUMNS} from ${TABLE} where id >= ? order by id limit ?`;
  const statement = serverPrepared(db.$client, sql);
  const before = await counters();
  const answers = [await statement.rows([1, 10]), await statement.rows([2, 10]), await statement.rows([1, 1])];
  const after = await counters();
  expect(answers).toEqual([await textRows(sql, [1, 10]), await textRows(sql, [2, 10]), await textRows(sql, [1, 1])]);
  expect(answers[0]).toEqual([
    [1, 'full', '12345678901234567890.0123456789', 0.30000000000000004, '2026-11-25 08:50:00.123', '2026-02-03', { a: [1, 2.5] }, -5],
    [2, null, null, null, null, null, null, null],
  ]);
  expect(after.Com_stmt_prepare - before.Com_stmt_prepare).toBe(1);
  expect(after.Com_stmt_execute - before.Com_stmt_execute).toBe(3);
});

it('runs a write and answers the rows it changed', async () => {
  const statement = serverPrepared(db.$client, `update ${TABLE} set label = ? where id = ?`);
  expect(await statement.run(['changed', 2])).toBe(1);
  expect(await statement.run([null, 3])).toBe(0);
  expect(await statement.run([null, 2])).toBe(1);
});

it('keeps a statement of FLOAT or TIME columns on the text protocol, whose values it answers', async () => {
  const sql = `select ${TEXT_ONLY_COLUMNS} from ${TABLE} where id >= ? order by id`;
  const statement = serverPrepared(db.$client, sql);
  const first = await statement.rows([1]);
  const before = await counters();
  const second = await statement.rows([1]);
  const after = await counters();
  // Binary: 123456.7890625, 1.100000023841858, '-838:59:59.5', '12:00:00'.
  expect([first, second]).toEqual([[[1, 123457, '-838:59:59.500'], [2, 1.1, '12:00:00.000']], await textRows(sql, [1])]);
  expect(after.Com_stmt_prepare - before.Com_stmt_prepare).toBe(0);
  expect(after.Com_stmt_execute - before.Com_stmt_execute).toBe(0);
});

it('closes the statement on the server when released, and prepares it again if it is used after', async () => {
  const statement = serverPrepared(db.$client, `select id from ${TABLE} where id = ?`);
  expect(await statement.rows([1])).toEqual([[1]]);
  const before = await counters();
  statement.release!();
  expect(await statement.rows([2])).toEqual([[2]]);
  const after = await counters();
  expect(after.Com_stmt_close - before.Com_stmt_close).toBe(1);
  expect(after.Com_stmt_prepare - before.Com_stmt_prepare).toBe(1);
});

it('fails as the text protocol does, with the server error', async () => {
  await expect(serverPrepared(db.$client, 'select id from mysql_statements_missing where id = ?').rows([1])).rejects.toMatchObject({ code: 'ER_NO_SUCH_TABLE', errno: 1146 });
});

describe('the statement cache', () => {
  const releasable = (released: string[], name: string) => ({ release: () => released.push(name) });

  it('releases the statement it evicts, and every statement when it is turned off', () => {
    const cache = new StatementCache();
    const released: string[] = [];
    for (let index = 0; index <= 128; index++) cache.statement(`shape ${index}`, () => releasable(released, `shape ${index}`));
    expect(released).toEqual(['shape 0']);
    cache.statement('plain', () => ({}));
    expect(released).toEqual(['shape 0', 'shape 1']);
    cache.disable();
    expect(released).toHaveLength(129);
    expect(new Set(released).size).toBe(129);
  });
});

describe('on a private server', () => {
  let server: PrivateDatabaseServer;
  let pool: mysql.Pool;

  beforeAll(async () => {
    server = await startPrivateDatabaseServer('mysql');
    pool = mysql.createPool({ uri: server.url, connectionLimit: 1 });
    applyMysqlTimeouts(pool, { statement: 1000 });
  }, 120_000);

  afterEach(() => server.thaw());

  afterAll(async () => {
    await new Promise((resolve) => pool?.end(resolve));
    await server?.destroy();
  }, 60_000);

  const poolQuery = (sql: string) => new Promise((resolve, reject) => pool.query(sql, (error, rows) => (error ? reject(error) : resolve(rows))));

  it('runs a statement as text when the server holds as many prepared statements as it allows', async () => {
    await poolQuery('set global max_prepared_stmt_count = 1');
    try {
      const first = serverPrepared(pool, 'select 1 + ?');
      const second = serverPrepared(pool, 'select 2 + ?');
      expect(await first.rows([1])).toEqual([[2]]);
      // Refused by the server (ER_MAX_PREPARED_STMT_COUNT_REACHED): answered on the text protocol, every call.
      expect(await second.rows([1])).toEqual([[3]]);
      expect(await second.rows([2])).toEqual([[4]]);
      expect(await first.rows([5])).toEqual([[6]]);
    } finally {
      await poolQuery('set global max_prepared_stmt_count = default');
    }
  });

  it('gives up on a prepare the frozen server does not answer, after the statement timeout', async () => {
    const statement = serverPrepared(pool, 'select 3 + ?');
    await poolQuery('select 1');
    server.freeze();
    const started = Date.now();
    await expect(statement.rows([1])).rejects.toMatchObject({ code: 'PROTOCOL_SEQUENCE_TIMEOUT' });
    expect(Date.now() - started).toBeLessThan(5000);
    server.thaw();
    // The pool opens another connection, on which the statement is prepared and runs.
    expect(await statement.rows([1])).toEqual([[4]]);
  }, 30_000);
});
