// MySQL's and MariaDB's transactions through mysql2: a crud write's transaction (Dialect.transact, on Drizzle's, run
// again when the server chose it as a deadlock's victim), the compiled handlers' write with its read-back on one pooled
// connection (writeThenRead), and the statements run once for a call, with Drizzle's settings for dates.
import { getTableName } from 'drizzle-orm';
import { OutsideScope, ROW_MISSING, type DbRow, type OnceAnswer, type TextStatement, type WritePlan } from './dialect';
import { driverErrorOf } from './driver-errors';
import { keysInInputOrder } from './insert-order';
import { inTransaction, untraced, type QueryClient } from './mysql-client';
import { DEADLOCK_ERRNO } from './mysql-errors';
import { textQuery } from './mysql-text-dates';
import { driveAsync, retryingDeadlocks, type TxStep, type TxWork } from './transaction-work';

/**
 * The key of the row just inserted: the one the client sent, else the one `$returningId` reports (auto-increment or
 * `$defaultFn`). `$returningId` reports nothing for a key the client supplies (issue 10), and cannot know a key
 * filled by a SQL default: that insert fails and rolls back rather than answer another row.
 */
export function insertedKey(plan: Pick<WritePlan, 'table' | 'pkKey'>, values: Record<string, unknown>, written: DbRow[]): unknown {
  const sent = values[plan.pkKey];
  if (sent !== undefined && sent !== null) return sent;
  const reported = written[0]?.[plan.pkKey];
  if (reported === undefined) throw new Error(`the key of a row inserted into ${getTableName(plan.table)} is unknown: its primary key needs an auto-increment, a $defaultFn or a value from the client`);
  return reported;
}

/** Rows matched by an UPDATE or DELETE (mysql2 sets CLIENT_FOUND_ROWS, so unchanged matches count too). */
export function affectedRows(result: any): number {
  return (Array.isArray(result) ? result[0] : result).affectedRows;
}

/** One step of a transaction's work, on drizzle's transaction (one pooled connection). */
async function runStep(tx: any, step: TxStep): Promise<unknown> {
  switch (step.kind) {
    case 'rows':
      return step.query(tx);
    case 'lock':
      return step.query(tx).for('update');
    case 'count':
      return affectedRows(await step.query(tx));
    case 'insert': {
      const written: DbRow[] = await tx.insert(step.table).values(step.values).$returningId();
      return insertedKey({ table: step.table, pkKey: step.pkKey }, step.values, written);
    }
    case 'insertMany': {
      // $returningId numbers an auto-increment key from insertId on: one statement's simple insert gets consecutive values.
      const written: DbRow[] = await tx.insert(step.table).values(step.rows).$returningId();
      return keysInInputOrder(step.rows, step.pkKey, step.rows.map((_, index) => written[index]?.[step.pkKey]));
    }
    case 'text':
      // Drizzle's transaction holds one pooled connection (its session's) from begin to commit.
      return runMysqlOnce(untraced(tx.session.client), step.statement);
  }
}

/**
 * A statement with its values bound by mysql2 for this call (its `query`): no statement is prepared on the server,
 * so nothing is kept. Rows as arrays, the date types as text (Drizzle's settings, for the columns' decoders).
 */
export async function runMysqlOnce(client: QueryClient, { text, values }: TextStatement): Promise<OnceAnswer> {
  const [result] = await client.query(textQuery(text, client), values);
  if (Array.isArray(result)) return { rows: result as unknown[][], changes: result.length };
  const header = result as { affectedRows: number; insertId: unknown };
  return { rows: [], changes: header.affectedRows, insertId: header.insertId };
}

/** Dialect.transact on MySQL and MariaDB: the work on Drizzle's transaction. */
export function transactMysql<T>(db: any, work: () => TxWork<T>): Promise<T> {
  return retryingDeadlocks(() => db.transaction((tx: any) => driveAsync(work(), (step) => runStep(tx, step))), (error) => driverErrorOf(error)?.errno === DEADLOCK_ERRNO);
}

/** Dialect.writeThenRead: the write, then the read its answer calls for, on one connection in one transaction. */
export function mysqlWriteThenRead(db: any, write: TextStatement, next: (answer: OnceAnswer) => TextStatement | null): Promise<unknown[] | null | typeof ROW_MISSING> {
  return inTransaction(db, async (connection) => {
    const read = next(await runMysqlOnce(connection, write));
    if (read === null) return ROW_MISSING;
    const [row] = (await runMysqlOnce(connection, read)).rows;
    if (row === undefined) throw new OutsideScope();
    return row;
  });
}
