// CONTRACT §10, optimistic concurrency in the crud pipeline: update and delete with `ifMatch` (HTTP If-Match) run as
// one transaction that locks the row, compares its ETag and writes, so that of two writers holding one ETag exactly
// one succeeds; the other is answered PRECONDITION_FAILED (412) and nothing of it is written.
import { ROW_MISSING, type DbRow } from '../dialects/dialect';
import { deleteIfMatch, updateIfMatch } from '../sql/conditional-writes';
import type { ResourcePlan, Scope } from '../sql/resource-plan';
import { bulkPlan, ifMatchCheck, transaction } from './bulk-actions';

/** update by id with If-Match: the written row, or ROW_MISSING when no row in scope has that id. */
export function updateWithIfMatch(rt: ResourcePlan, scope: Scope, id: unknown, values: Record<string, unknown>, ifMatch: string): Promise<DbRow | typeof ROW_MISSING> {
  const matches = ifMatchCheck(rt, ifMatch)!;
  return transaction(rt, 'updated', () => rt.dialect.transact(rt.db, () => updateIfMatch(bulkPlan(rt, scope), id, values, matches)));
}

/** delete by id with If-Match: whether a row in scope was deleted. */
export function deleteWithIfMatch(rt: ResourcePlan, scope: Scope, id: unknown, ifMatch: string): Promise<boolean> {
  const matches = ifMatchCheck(rt, ifMatch)!;
  return transaction(rt, 'deleted', () => rt.dialect.transact(rt.db, () => deleteIfMatch(bulkPlan(rt, scope), id, matches)));
}
