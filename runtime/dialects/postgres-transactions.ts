// PostgreSQL's transactions through pg: a crud write's transaction (Dialect.transact, on Drizzle's), the compiled
// handlers' write with its read-back on one pooled client (writeThenRead), and their scoped write that checks the
// scope in its own RETURNING (checkedWrite), each statement prepared for the call only.
import type pg from 'pg';
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { ROW_MISSING, type CheckedWrite, type DbRow, type OnceAnswer, type TextStatement } from './dialect';
import { driverErrorOf } from './driver-errors';
import { keysInInputOrder } from './insert-order';
import { DEADLOCK_SQLSTATE } from './postgres-errors';
import { driveAsync, retryingDeadlocks, type TxStep, type TxWork } from './transaction-work';
import { rowInsideScope } from './write-statements';

/**
 * The type parsers Drizzle's node-postgres driver gives its queries: dates, timestamps and intervals (and their
 * arrays) stay text, for the columns' own decoders; everything else as pg parses it. Raw statements use the same.
 */
const TEXT_TYPES = new Set([1082, 1114, 1184, 1186, 1182, 1115, 1185, 1187, 1231]);
let pgTypes: typeof pg.types | undefined;
export const DRIZZLE_TYPES = {
  getTypeParser: (typeId: number, format?: string) => {
    if (TEXT_TYPES.has(typeId)) return (value: string) => value;
    // Required on first use: an application without PostgreSQL need not install pg.
    pgTypes ??= (require('pg') as typeof pg).types;
    return (pgTypes.getTypeParser as (id: number, format?: string) => unknown)(typeId, format);
  },
};

interface QueryClient {
  query(config: object | string, values?: readonly unknown[]): Promise<{ rows: unknown[][]; rowCount: number | null }>;
}

/** An unnamed statement: PostgreSQL parses it for this call only (no plan is kept on the connection). */
export async function runPostgresOnce(client: QueryClient, { text, values }: TextStatement): Promise<OnceAnswer> {
  const result = await client.query({ text, rowMode: 'array', types: DRIZZLE_TYPES }, values);
  return { rows: result.rows, changes: result.rowCount ?? 0 };
}

/** One step of a transaction's work, on drizzle's transaction (one pooled client). */
async function runStep(tx: any, step: TxStep): Promise<unknown> {
  switch (step.kind) {
    case 'rows':
      return step.query(tx);
    case 'lock':
      return step.query(tx).for('update');
    case 'count':
      return (await step.query(tx)).rowCount;
    case 'insert':
      return (await tx.insert(step.table).values(step.values).returning({ key: step.pk }))[0].key;
    case 'insertMany':
      return keysInInputOrder(step.rows, step.pkKey, (await tx.insert(step.table).values(step.rows).returning({ key: step.pk })).map((row: DbRow) => row.key));
    case 'text':
      // Drizzle's transaction holds one pooled client (its session's) from begin to commit.
      return runPostgresOnce(tx.session.client, step.statement);
  }
}

/** Dialect.transact on PostgreSQL: the work on Drizzle's transaction, run again when PostgreSQL chose it as a deadlock's victim. */
export function transactPostgres<T>(db: any, work: () => TxWork<T>): Promise<T> {
  return retryingDeadlocks(() => db.transaction((tx: any) => driveAsync(work(), (step) => runStep(tx, step))), (error) => driverErrorOf(error)?.code === DEADLOCK_SQLSTATE);
}

/**
 * Runs `work` in a transaction on one client (a pool lends one, as Drizzle's transaction does; a single client is
 * used as it is): committed when it answers `keep`, rolled back when it answers not to or throws.
 */
async function inPostgresTransaction<T>(pool: any, work: (client: QueryClient) => Promise<{ readonly answer: T; readonly keep: boolean }>): Promise<T> {
  const client: QueryClient & { release?(error?: unknown): void } = typeof pool.totalCount === 'number' ? await pool.connect() : pool;
  let failure: unknown;
  try {
    await client.query('begin');
    try {
      const { answer, keep } = await work(client);
      await client.query(keep ? 'commit' : 'rollback');
      return answer;
    } catch (error) {
      await client.query('rollback').catch((rollbackError: unknown) => (failure = rollbackError));
      throw error;
    }
  } finally {
    // A client whose rollback failed is dropped rather than lent again.
    if (client !== pool) client.release?.(failure);
  }
}

/**
 * Dialect.writeThenRead on PostgreSQL: begin, the write, the read `next` makes of its answer, then commit (rollback
 * when the read finds no row).
 */
export function postgresWriteThenRead(pool: any, write: TextStatement, next: (answer: OnceAnswer) => TextStatement | null): Promise<unknown[] | null | typeof ROW_MISSING> {
  return inPostgresTransaction<unknown[] | null | typeof ROW_MISSING>(pool, async (client) => {
    const read = next(await runPostgresOnce(client, write));
    if (read === null) return { answer: ROW_MISSING, keep: true };
    const [row] = (await runPostgresOnce(client, read)).rows;
    return row === undefined ? { answer: null, keep: false } : { answer: row, keep: true };
  });
}

/**
 * What the verdict casts to an integer when the row falls outside the scope: the error quotes it. Random per process,
 * so no value a request sends can make another failure look like this one.
 */
const OUTSIDE_SCOPE = `tessera outside the scope ${randomUUID()}`;

/**
 * Dialect.checkedWrite on PostgreSQL: one statement, in no transaction of its own. Its verdict is 1 for a row inside
 * the scope; for one outside it casts OUTSIDE_SCOPE to an integer, which fails the statement, so PostgreSQL undoes
 * its write. (The CASE is not constant, so PostgreSQL cannot fold that cast and fail when it plans the statement.)
 */
export const postgresCheckedWrite: CheckedWrite = {
  verdict: (condition) => sql`cast(case when ${condition} then '1' else ${sql.raw(`'${OUTSIDE_SCOPE}'`)} end as integer)`,
  async run(db, write) {
    try {
      const [row] = (await runPostgresOnce(db.$client, write)).rows;
      return row === undefined ? ROW_MISSING : rowInsideScope(row);
    } catch (error) {
      // 22P02: invalid text representation, here of the verdict's text (the message quotes it, in any language).
      const failure = error as { code?: unknown; message?: unknown };
      if (failure?.code === '22P02' && typeof failure.message === 'string' && failure.message.includes(`"${OUTSIDE_SCOPE}"`)) return null;
      throw error;
    }
  },
};
