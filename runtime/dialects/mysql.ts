// MySQL and MariaDB through mysql2: INSERT … RETURNING on MariaDB 10.5+ (mariadb-returning.ts), else rows read back by primary key
// in the write's transaction; LIKE follows the column's collation, errno 1062 for unique and 1216/1217/1451/1452 for foreign-key violations.
import { getTableName, sql, type Column } from 'drizzle-orm';
import { flatRowReader, type RowReader } from './prepared-select';
import { getTableConfig } from 'drizzle-orm/mysql-core';
import { OutsideScope, ROW_MISSING, type DbRow, type Dialect, type WritePlan } from './dialect';
import { clientErrorFrom, describeWith, driverErrorOf, unavailableFrom } from './driver-errors';
import { logToDrizzle } from './drizzle-logger';
import { refineMysqlColumnSchema } from './mysql-column-schema';
import { likePatternValue, matchLike } from './like-escape';
import { inTransaction, onConnection, prepareQuery, untraced, type QueryClient } from './mysql-client';
import { datetimeDecoder } from './mysql-datetime';
import { DRIVER_CODES, REASONS, UNAVAILABLE } from './mysql-errors';
import { applyMysqlTimeouts, mysqlTarget } from './mysql-pool';
import { byIdPlaceholder, rowCondition, updateValues, valuePlaceholders, writeShape } from './write-statements';
import { insertReturnsOn } from './mariadb-returning';
import { serverPrepared } from './mysql-statements';
import { affectedRows, insertedKey, mysqlWriteThenRead, runMysqlOnce, transactMysql } from './mysql-transactions';

/** The mysql2 connection options behind a drizzle database: pools and connections, promise or callback style. */
function clientOptions(db: any): { supportBigNumbers?: boolean } | undefined {
  const client = db?.$client;
  const candidates = [client?.pool?.config?.connectionConfig, client?.config?.connectionConfig, client?.connection?.config, client?.config];
  return candidates.find((options) => options !== undefined && options !== null && 'supportBigNumbers' in options);
}

/** Reads the written row back inside the transaction; a miss means it left the scope, so the write must roll back. */
async function readBack(db: any, connection: QueryClient, plan: WritePlan, id: unknown): Promise<DbRow> {
  const [row] =
    plan.statements !== null
      ? await onConnection(plan.statements('read-back', () => db.select(plan.selection).from(plan.table).where(byIdPlaceholder(plan.pk)).limit(1)), connection).execute(updateValues({}, id))
      : await onConnection(prepareQuery(db.select(plan.selection).from(plan.table).where(rowCondition(plan, id)).limit(1)), connection).execute();
  if (row === undefined) throw new OutsideScope();
  return row;
}

const selectionReaders = new WeakMap<object, RowReader>();

/** An array row of `selection`'s columns as Drizzle maps it (a DATETIME's decoder: mysql-datetime.ts). */
function selectionReader(selection: Record<string, Column>): RowReader {
  let reader = selectionReaders.get(selection);
  if (reader === undefined) {
    reader = flatRowReader(Object.entries(selection).map(([key, column]) => ({ path: [key], field: column })), datetimeDecoder)!;
    selectionReaders.set(selection, reader);
  }
  return reader;
}

export const mysqlDialect: Dialect = {
  name: 'mysql',

  refineColumnSchema: refineMysqlColumnSchema,

  checkColumn(db, column) {
    // Without supportBigNumbers mysql2 hands BIGINT over as a JS number, silently dropping digits above 2^53.
    if (column.dataType !== 'bigint' || clientOptions(db)?.supportBigNumbers !== false) return null;
    return `bigint column "${column.name}" needs the mysql2 option supportBigNumbers: true (values above 2^53 would lose digits)`;
  },

  patternValue: likePatternValue,
  matchPattern: matchLike,

  async insert(db, plan, values) {
    // MariaDB 10.5+, a call kept out of the cache without a scope: one INSERT … RETURNING answers the row it wrote.
    if (plan.statements === null && plan.scope === undefined && (await insertReturnsOn(db.$client))) {
      const { sql: text, params } = mysqlDialect.returningInsert(db.insert(plan.table).values(values), plan.selection).toSQL();
      const [row] = (await runMysqlOnce(untraced(db.$client), { text, values: params })).rows;
      return selectionReader(plan.selection)(row);
    }
    return inTransaction(db, async (connection) => {
      // spec §8: one statement per set of written columns, prepared on the pool and run on the transaction's connection.
      const statement =
        plan.statements !== null
          ? plan.statements(writeShape('insert', values), () => db.insert(plan.table).values(valuePlaceholders(plan.table, values)).$returningId())
          : db.insert(plan.table).values(values).$returningId().prepare();
      const written: DbRow[] = await onConnection(statement, connection).execute(values);
      return readBack(db, connection, plan, insertedKey(plan, values, written));
    });
  },

  update(db, plan, id, values) {
    return inTransaction(db, async (connection) => {
      const statement =
        plan.statements !== null
          ? plan.statements(writeShape('update', values), () => db.update(plan.table).set(valuePlaceholders(plan.table, values)).where(byIdPlaceholder(plan.pk)))
          : db.update(plan.table).set(values).where(rowCondition(plan, id)).prepare();
      const result = await onConnection(statement, connection).execute(updateValues(values, id));
      if (affectedRows(result) === 0) return ROW_MISSING;
      return readBack(db, connection, plan, id);
    });
  },

  async remove(db, plan, id) {
    if (plan.statements !== null) {
      const result = await plan.statements('delete', () => db.delete(plan.table).where(byIdPlaceholder(plan.pk))).execute(updateValues({}, id));
      return affectedRows(result) > 0;
    }
    const result = await db.delete(plan.table).where(rowCondition(plan, id));
    return affectedRows(result) > 0;
  },

  transact: (db, work) => transactMysql(db, work),

  inlinesLimit: false,
  limitsPerKey: 'window',
  nullsFirstAscending: true,
  rowDecoder: datetimeDecoder,
  hasReturning: false,

  insertReturns(db) {
    return insertReturnsOn(db.$client);
  },

  returningInsert(insert, selection) {
    // MariaDB's RETURNING names the inserted row's columns unqualified; Drizzle's MySQL builder has no returning().
    const columns = Object.values(selection).map((column) => `\`${column.name.replace(/`/g, '``')}\``).join(', ');
    return {
      toSQL: () => {
        const { sql: text, params } = insert.toSQL();
        return { sql: `${text} returning ${columns}`, params };
      },
      prepare: () => {
        throw new Error('an INSERT … RETURNING of MariaDB runs as text only');
      },
    };
  },

  async learnServer(db) {
    await insertReturnsOn(db.$client);
  },

  // drizzle's mysql2 prepared query keeps the SQL text built once; mysql2 binds the values.
  prepare(query) {
    return prepareQuery(query, serverPrepared);
  },
  async ping(db) {
    await db.execute(sql`select 1`);
  },

  mapDriverError(error) {
    return clientErrorFrom(error, driverErrorOf(error)?.errno, DRIVER_CODES) ?? unavailableFrom(error, UNAVAILABLE);
  },

  close(db) {
    // drizzle keeps the client it was given: a promise pool answers end() with a promise, a callback pool calls back.
    const client = db.$client;
    return new Promise<void>((resolve, reject) => {
      const ended = client.end((error: unknown) => (error ? reject(error) : resolve()));
      if (typeof ended?.then === 'function') ended.then(resolve, reject);
    });
  },

  describeDriverError(error) {
    return describeWith(error, (driver) => driver.errno ?? driver.code, REASONS);
  },

  // Prepared by the server once per pooled connection (mysql-statements.ts).
  rawStatement: (db, text) => serverPrepared(db.$client, text),

  runOnce(db, statement) {
    logToDrizzle(db, statement);
    return runMysqlOnce(untraced(db.$client), statement);
  },

  writeThenRead: (db, write, next) => mysqlWriteThenRead(db, write, next),

  async listColumns(db, table) {
    // A table of a mysqlSchema lives in that database; otherwise in the connection's.
    const database = getTableConfig(table as never).schema ?? null;
    const [rows] = (await db.execute(
      sql`select column_name as name from information_schema.columns where table_schema = coalesce(${database}, database()) and table_name = ${getTableName(table)}`,
    )) as [{ name: string }[]];
    return rows.length === 0 ? null : rows.map((row) => row.name);
  },

  applyTimeouts: (db, given) => applyMysqlTimeouts(db.$client, given),
  describeTarget: (db) => mysqlTarget(db.$client),

  watchClient() {
    // mysql2's pool drops a connection that fails while idle without emitting the error.
  },
};
