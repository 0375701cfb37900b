// The transactions of CONTRACT §10, dialect-neutral: what createMany, updateMany, deleteMany and upsert ask the
// database, as work each dialect runs (dialects/transaction-work.ts). Every statement reaches only rows in the
// caller's scope; a written row that would leave it throws OutsideScope, and the whole transaction rolls back.
import { and, count, eq, inArray, type Column, type SQL, type Table } from 'drizzle-orm';
import { OutsideScope, type DbRow } from '../dialects/dialect';
import type { TxWork } from '../dialects/transaction-work';

/** What a transaction of several rows needs to know about the table and the caller. */
export interface BulkPlan {
  readonly table: Table;
  readonly pk: Column;
  readonly pkKey: string;
  /** Columns to read back, keyed by property name. */
  readonly selection: Record<string, Column>;
  readonly scope: SQL | undefined;
}

/** More rows match than `maxAffected` allows: nothing was changed. */
export class TooManyRows extends Error {
  constructor(readonly matched: number) {
    super(`${matched} rows match`);
  }
}

/** upsert met a row with that key outside the caller's scope (CONTRACT §10: CONFLICT, nothing written). */
export class KeyOutsideScope extends Error {}

/** If-Match named another ETag than the row's current one (or no row exists): nothing was written. */
export class PreconditionFailed extends Error {}

/** The rows matched while before-hooks ran are not the rows matched now: nothing was changed. */
export class MatchChanged extends Error {}

/** `condition` ANDed with the caller's scope. */
export function inScope(plan: BulkPlan, condition: SQL): SQL {
  return plan.scope === undefined ? condition : (and(condition, plan.scope) as SQL);
}

/** The rows with these keys, in scope, read back (the key always selected); throws OutsideScope when one is missing. */
export function* readBack(plan: BulkPlan, keys: readonly unknown[]): TxWork<DbRow[]> {
  const selection = { ...plan.selection, [plan.pkKey]: plan.pk };
  const rows: DbRow[] = yield { kind: 'rows', query: (tx) => tx.select(selection).from(plan.table).where(inScope(plan, inArray(plan.pk, [...keys]))) };
  const inOrder = rowsByKey(plan, keys, rows);
  if (inOrder === null) throw new OutsideScope();
  return inOrder;
}

/** `rows` in the order of `keys` (each row's key under the key's property), or null when a key has no row. */
export function rowsByKey(plan: Pick<BulkPlan, 'pkKey'>, keys: readonly unknown[], rows: readonly DbRow[]): DbRow[] | null {
  const byKey = new Map<string, DbRow>();
  for (const row of rows) byKey.set(String(row[plan.pkKey]), row);
  const inOrder: DbRow[] = [];
  for (const key of keys) {
    const row = byKey.get(String(key));
    if (row === undefined) return null;
    inOrder.push(row);
  }
  return inOrder;
}

/** The keys of the rows in scope matching `where`, locked; TooManyRows (with the exact count) beyond `maxAffected`. */
export function* matchingKeys(plan: BulkPlan, where: SQL, maxAffected: number, lock = true): TxWork<unknown[]> {
  const condition = inScope(plan, where);
  const rows: DbRow[] = yield { kind: lock ? 'lock' : 'rows', query: (tx) => tx.select({ key: plan.pk }).from(plan.table).where(condition).orderBy(plan.pk).limit(maxAffected + 1) };
  if (rows.length > maxAffected) {
    const [total]: DbRow[] = yield { kind: 'rows', query: (tx) => tx.select({ matched: count() }).from(plan.table).where(condition) };
    throw new TooManyRows(Number(total.matched));
  }
  return rows.map((row) => row.key);
}

/**
 * updateMany: the matching rows updated, with the same values (`values`) or each its own (`valuesOf`, when a
 * beforeUpdate hook gave them for exactly `expected` keys); then checked in scope, read back when `rowsWanted`.
 */
export function* updateMatching(
  plan: BulkPlan,
  where: SQL,
  maxAffected: number,
  change: { readonly values: Record<string, unknown> } | { readonly valuesOf: ReadonlyMap<string, Record<string, unknown>> },
  rowsWanted: boolean,
): TxWork<{ keys: unknown[]; rows: DbRow[] }> {
  const keys = yield* matchingKeys(plan, where, maxAffected);
  if (keys.length === 0) return { keys, rows: [] };
  if ('values' in change) {
    yield { kind: 'count', query: (tx) => tx.update(plan.table).set(change.values).where(inArray(plan.pk, keys)) };
  } else {
    if (keys.length !== change.valuesOf.size || keys.some((key) => !change.valuesOf.has(String(key)))) throw new MatchChanged();
    for (const key of keys) yield { kind: 'count', query: (tx) => tx.update(plan.table).set(change.valuesOf.get(String(key))!).where(eq(plan.pk, key)) };
  }
  // CONTRACT §3: an updated row must stay in scope.
  if (!rowsWanted && plan.scope === undefined) return { keys, rows: [] };
  const rows = yield* readBack(plan, keys);
  return { keys, rows: rowsWanted ? rows : [] };
}

/** deleteMany: the matching rows deleted; their keys. */
export function* deleteMatching(plan: BulkPlan, where: SQL, maxAffected: number): TxWork<unknown[]> {
  const keys = yield* matchingKeys(plan, where, maxAffected);
  if (keys.length > 0) yield { kind: 'count', query: (tx) => tx.delete(plan.table).where(inArray(plan.pk, keys)) };
  return keys;
}

/** Whether a row with this key exists (upsert's choice of hook, before its transaction); KeyOutsideScope when it exists outside the scope. */
export function* keyExists(plan: BulkPlan, id: unknown): TxWork<boolean> {
  const rows: DbRow[] = yield { kind: 'rows', query: (tx) => tx.select({ key: plan.pk }).from(plan.table).where(eq(plan.pk, id)).limit(1) };
  if (rows.length === 0) return false;
  if (plan.scope === undefined) return true;
  const visible: DbRow[] = yield { kind: 'rows', query: (tx) => tx.select({ key: plan.pk }).from(plan.table).where(inScope(plan, eq(plan.pk, id))).limit(1) };
  if (visible.length === 0) throw new KeyOutsideScope();
  return true;
}

export interface UpsertChange {
  /** The values of a new row (its key included). */
  readonly create: Record<string, unknown>;
  /** The values an existing row gets (may be empty: the row is answered as it is). */
  readonly update: Record<string, unknown>;
  /** Whether the row existed when the before-hooks ran (null: no hook ran); a different answer now is MatchChanged. */
  readonly existed: boolean | null;
  /** If-Match (CONTRACT §10): whether the existing row is the one the caller read; null without one. A missing row fails it. */
  readonly matches: ((row: DbRow) => boolean) | null;
}

/** upsert: the row created, or updated when it exists in scope; KeyOutsideScope when it exists outside. */
export function* upsertRow(plan: BulkPlan, id: unknown, change: UpsertChange): TxWork<{ row: DbRow; isCreated: boolean }> {
  const found: DbRow[] = yield { kind: 'lock', query: (tx) => tx.select({ ...plan.selection, [plan.pkKey]: plan.pk }).from(plan.table).where(eq(plan.pk, id)) };
  const exists = found.length > 0;
  if (change.existed !== null && change.existed !== exists) throw new MatchChanged();
  if (change.matches !== null && (!exists || !change.matches(found[0]))) {
    // A row outside the scope answers as it does without If-Match: CONFLICT, nothing said about its ETag.
    if (exists && plan.scope !== undefined) yield* keyExists(plan, id);
    throw new PreconditionFailed();
  }
  if (!exists) {
    const key = yield { kind: 'insert', table: plan.table, pk: plan.pk, pkKey: plan.pkKey, values: change.create };
    const [row] = yield* readBack(plan, [key]);
    return { row, isCreated: true };
  }
  if (plan.scope !== undefined) {
    const visible: DbRow[] = yield { kind: 'rows', query: (tx) => tx.select({ key: plan.pk }).from(plan.table).where(inScope(plan, eq(plan.pk, id))) };
    if (visible.length === 0) throw new KeyOutsideScope();
  }
  if (Object.keys(change.update).length > 0) yield { kind: 'count', query: (tx) => tx.update(plan.table).set(change.update).where(eq(plan.pk, id)) };
  const [row] = yield* readBack(plan, [id]);
  return { row, isCreated: false };
}
