// A write of several statements in one transaction (CONTRACT §10: createMany, updateMany, deleteMany, upsert), written
// once as a generator of steps and run by each dialect: better-sqlite3 runs a transaction synchronously (its callback
// must not await, or other requests would run inside it), MySQL and PostgreSQL await each statement. The work yields a
// step, the dialect runs it on the transaction and resumes the work with the answer; a throw rolls everything back.
import type { Column, Table } from 'drizzle-orm';
import type { TextStatement } from './text-statements';
/** A drizzle database or transaction of any dialect (dialect.ts's AnyDatabase; not imported, which would make a circle). */
type AnyDatabase = any;

/** A query built on the transaction (`tx.select(…)…`, `tx.update(…)…`): drizzle's builders are the same on the three. */
export type TxQuery = (tx: AnyDatabase) => any;

export type TxStep =
  /** A select: its rows. */
  | { readonly kind: 'rows'; readonly query: TxQuery }
  /** A select whose rows stay locked until the transaction ends (FOR UPDATE; SQLite's write transaction holds the file). */
  | { readonly kind: 'lock'; readonly query: TxQuery }
  /** An UPDATE or DELETE: how many rows it matched. */
  | { readonly kind: 'count'; readonly query: TxQuery }
  /** Inserts one row: its primary key value (the one sent, or the one the database gave it). */
  | { readonly kind: 'insert'; readonly table: Table; readonly pk: Column; readonly pkKey: string; readonly values: Record<string, unknown> }
  /**
   * Inserts several rows in one statement: their primary key values, in input order. Every row carries its key, or
   * none does and the database numbers them (an integer key: ascending in input order, insert-order.ts).
   */
  | { readonly kind: 'insertMany'; readonly table: Table; readonly pk: Column; readonly pkKey: string; readonly rows: readonly Record<string, unknown>[] }
  /** A statement Tessera wrote as text (a multi-row INSERT of createMany), run on the transaction's connection: its OnceAnswer. */
  | { readonly kind: 'text'; readonly statement: TextStatement };

/** The work of one transaction: yields steps, gets each one's answer back, returns the result. */
export type TxWork<T> = Generator<TxStep, T, any>;

/** Runs the work with a synchronous step runner (better-sqlite3). */
export function driveSync<T>(work: TxWork<T>, run: (step: TxStep) => unknown): T {
  let next = work.next();
  while (next.done !== true) next = work.next(run(next.value));
  return next.value;
}

/** Runs the work with an asynchronous step runner (mysql2, pg). */
export async function driveAsync<T>(work: TxWork<T>, run: (step: TxStep) => Promise<unknown>): Promise<T> {
  let next = work.next();
  while (next.done !== true) next = work.next(await run(next.value));
  return next.value;
}

/** Runs of a transaction the database chose as a deadlock's victim, before its error passes on. */
const DEADLOCK_ATTEMPTS = 3;

/**
 * Runs the transaction again when the database rolled it back whole as a deadlock's victim: two upserts of one new key
 * on InnoDB each hold a gap lock from their `FOR UPDATE` and then both insert. The next run sees the winner's row.
 */
export async function retryingDeadlocks<T>(run: () => Promise<T>, isDeadlock: (error: unknown) => boolean): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt >= DEADLOCK_ATTEMPTS || !isDeadlock(error)) throw error;
    }
  }
}
