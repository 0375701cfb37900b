// SQLite's transactions through better-sqlite3, run synchronously: a crud write's transaction (Dialect.transact, on
// Drizzle's), the compiled handlers' write with its read-back (writeThenRead) and their scoped write that checks the scope
// in its own RETURNING (checkedWrite), each statement prepared for the call only.
import { OutsideScope, ROW_MISSING, type CheckedWrite, type DbRow, type OnceAnswer, type TextStatement } from './dialect';
import { logToDrizzle } from './drizzle-logger';
import { keysInInputOrder } from './insert-order';
import { nullWhenOutsideScopeNow, rowInsideScope } from './write-statements';
import { driveSync, type TxStep, type TxWork } from './transaction-work';

/** A statement prepared for this call only: better-sqlite3 compiles the text, runs it, and the statement is dropped. */
export function runSqliteOnce(db: any, once: TextStatement): OnceAnswer {
  const { text, values } = once;
  logToDrizzle(db, once);
  const statement = db.$client.prepare(text);
  if (statement.reader) {
    const rows = statement.raw(true).all(...values) as unknown[][];
    return { rows, changes: rows.length };
  }
  return { rows: [], changes: statement.run(...values).changes };
}

/** One step of a transaction's work, synchronously: better-sqlite3 runs the whole transaction in one go (on `db`'s one connection). */
function runStep(db: any, tx: any, step: TxStep): unknown {
  switch (step.kind) {
    case 'rows':
    case 'lock': // the transaction already holds the database file for writing
      return step.query(tx).all();
    case 'count':
      return step.query(tx).run().changes;
    case 'insert':
      return tx.insert(step.table).values(step.values).returning({ key: step.pk }).all()[0].key;
    case 'insertMany':
      return keysInInputOrder(step.rows, step.pkKey, tx.insert(step.table).values(step.rows).returning({ key: step.pk }).all().map((row: DbRow) => row.key));
    case 'text':
      return runSqliteOnce(db, step.statement);
  }
}

/** Dialect.transact on SQLite: the work on Drizzle's transaction, synchronously. */
export async function transactSqlite<T>(db: any, work: () => TxWork<T>): Promise<T> {
  // IMMEDIATE: the write lock is taken at BEGIN, so a read-then-write cannot meet another writer half-way.
  return db.transaction((tx: any) => driveSync(work(), (step) => runStep(db, tx, step)), { behavior: 'immediate' });
}

/** better-sqlite3's transaction wrapper, made once per database: making one builds a function and its variants each time. */
const transactionRunners = new WeakMap<object, <T>(work: () => T) => T>();

/** Runs `work` in one of better-sqlite3's (deferred) transactions: committed when it returns, rolled back when it throws. */
function inSqliteTransaction<T>(db: any, work: () => T): T {
  const client = db.$client as { transaction(fn: (work: () => unknown) => unknown): (work: () => unknown) => unknown };
  let run = transactionRunners.get(client);
  if (run === undefined) transactionRunners.set(client, (run = client.transaction((given: () => unknown) => given()) as <U>(work: () => U) => U));
  return run(work);
}

/** Dialect.writeThenRead on SQLite: the write and the read `next` makes of its answer, in one transaction. */
export function sqliteWriteThenRead(db: any, write: TextStatement, next: (answer: OnceAnswer) => TextStatement | null): unknown[] | null | typeof ROW_MISSING {
  // Synchronous, inside better-sqlite3's transaction: nothing else runs between the write and its read-back.
  const work = () => {
    const read = next(runSqliteOnce(db, write));
    if (read === null) return ROW_MISSING;
    const [row] = runSqliteOnce(db, read).rows;
    if (row === undefined) throw new OutsideScope();
    return row;
  };
  return nullWhenOutsideScopeNow(() => inSqliteTransaction(db, work));
}

/** Dialect.checkedWrite on SQLite: the verdict is the condition itself (1 or 0); the write runs in a transaction, rolled back when it is not 1. */
export const sqliteCheckedWrite: CheckedWrite = {
  verdict: (condition) => condition,
  run(db, write) {
    const work = () => {
      const [row] = runSqliteOnce(db, write).rows;
      if (row === undefined) return ROW_MISSING;
      const inside = rowInsideScope(row);
      if (inside === null) throw new OutsideScope();
      return inside;
    };
    return nullWhenOutsideScopeNow(() => inSqliteTransaction(db, work));
  },
};
