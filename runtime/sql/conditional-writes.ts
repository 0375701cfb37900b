// CONTRACT §10, optimistic concurrency: update and delete with If-Match. The row is read and locked in scope, its ETag
// compared, and the write made in the same transaction, so two writers holding the same ETag cannot both succeed.
import { eq } from 'drizzle-orm';
import { ROW_MISSING, type DbRow } from '../dialects/dialect';
import type { TxWork } from '../dialects/transaction-work';
import { inScope, PreconditionFailed, readBack, type BulkPlan } from './bulk-writes';

/** Reads the row in scope and locks it until the transaction ends; undefined when there is none. */
function* lockedRow(plan: BulkPlan, id: unknown): TxWork<DbRow | undefined> {
  const rows: DbRow[] = yield { kind: 'lock', query: (tx) => tx.select({ ...plan.selection, [plan.pkKey]: plan.pk }).from(plan.table).where(inScope(plan, eq(plan.pk, id))) };
  return rows[0];
}

/** update with If-Match: the row as written (read back in scope), ROW_MISSING, or PreconditionFailed. */
export function* updateIfMatch(plan: BulkPlan, id: unknown, values: Record<string, unknown>, matches: (row: DbRow) => boolean): TxWork<DbRow | typeof ROW_MISSING> {
  const row = yield* lockedRow(plan, id);
  if (row === undefined) return ROW_MISSING;
  if (!matches(row)) throw new PreconditionFailed();
  yield { kind: 'count', query: (tx) => tx.update(plan.table).set(values).where(eq(plan.pk, id)) };
  const [written] = yield* readBack(plan, [id]);
  return written;
}

/** delete with If-Match: whether a row was deleted, or PreconditionFailed. */
export function* deleteIfMatch(plan: BulkPlan, id: unknown, matches: (row: DbRow) => boolean): TxWork<boolean> {
  const row = yield* lockedRow(plan, id);
  if (row === undefined) return false;
  if (!matches(row)) throw new PreconditionFailed();
  yield { kind: 'count', query: (tx) => tx.delete(plan.table).where(eq(plan.pk, id)) };
  return true;
}
