// The single-row writes' SQL pieces every dialect shares (spec §8 rule 1): the shape key of a write, placeholders
// named after the written columns and the id, the row condition with the caller's scope, and the scope's rollback.
import { and, eq, getTableColumns, type Column, type SQL, type Table } from 'drizzle-orm';
import { columnPlaceholder } from './column-placeholder';
import { OutsideScope, type WritePlan } from './dialect';

/** spec §8 rule 1 for a single-row write: the operation and the columns it sets, never their values. */
export function writeShape(operation: 'insert' | 'update', values: Record<string, unknown>): string {
  let shape = `${operation}|`;
  for (const key in values) if (Object.hasOwn(values, key)) shape += `${key.length}:${key}`;
  return shape;
}

/** Placeholders named after the columns a write sets, each mapped by its column's encoder. */
export function valuePlaceholders(table: Table, values: Record<string, unknown>): Record<string, SQL> {
  const columns = getTableColumns(table);
  const placeholders: Record<string, SQL> = {};
  for (const key in values) if (Object.hasOwn(values, key)) placeholders[key] = columnPlaceholder(key, columns[key]);
  return placeholders;
}

/** The id placeholder's name: a column key cannot start with a colon in practice, so it never meets a set value. */
export const ID_PLACEHOLDER = ':id';

/** `pk = :id`, the id mapped by the key column's encoder. */
export function byIdPlaceholder(pk: Column): SQL {
  return eq(pk, columnPlaceholder(ID_PLACEHOLDER, pk));
}

/** An update's placeholder values: the set columns and the id. */
export function updateValues(values: Record<string, unknown>, id: unknown): Record<string, unknown> {
  return { ...values, [ID_PLACEHOLDER]: id };
}

/** `pk = id`, ANDed with the scope when there is one. */
export function rowCondition(plan: Pick<WritePlan, 'pk' | 'scope'>, id: unknown): SQL {
  const byId = eq(plan.pk, id);
  return plan.scope === undefined ? byId : (and(byId, plan.scope) as SQL);
}

/** nullWhenOutsideScope for a write run synchronously (SQLite's): the same answer, without a promise. */
export function nullWhenOutsideScopeNow<T>(write: () => T): T | null {
  try {
    return write();
  } catch (error) {
    if (error instanceof OutsideScope) return null;
    throw error;
  }
}

/** Runs a write that may throw OutsideScope; such a write was rolled back and answers null. */
export async function nullWhenOutsideScope<T>(write: () => T | Promise<T>): Promise<T | null> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof OutsideScope) return null;
    throw error;
  }
}

/**
 * A RETURNING row whose last value is the scope's verdict on it (Dialect.checkedWrite): the row without it when the
 * verdict is 1, else null (0, or NULL as a WHERE would read it).
 */
export function rowInsideScope(row: unknown[]): unknown[] | null {
  const verdict = row.pop();
  return verdict === 1 ? row : null;
}
