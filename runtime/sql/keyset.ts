// The keyset condition of a cursor page (CONTRACT §10): the rows that come after the cursor's row in the list's
// order (the orderBy's columns, then the primary key), written so that each database walks the orderBy's index.
// A column that cannot be NULL is written `c >= :v AND (c > :v OR <the rest>)`: the leading range is what the
// planner turns into an index range on every dialect, the rest filters inside it. A nullable column follows the
// dialect's NULL ordering (Dialect.nullsFirstAscending) and the cursor's value (NULL or not), in the expanded form.
import { and, eq, gt, gte, isNotNull, isNull, lt, lte, or, sql, type Column, type SQL } from 'drizzle-orm';
import { columnPlaceholder } from '../dialects/column-placeholder';
import type { Dialect } from '../dialects/dialect';
import type { OrderByEntry } from './order-by';
import { tiebreakDirection } from './order-by';

/** One column of the list's order. */
export interface SortKey {
  readonly key: string;
  readonly column: Column;
  readonly descending: boolean;
}

/** The list's order as compileOrderBy writes it: the orderBy's entries, then the primary key unless it is one. */
export function sortKeysOf(orderBy: readonly OrderByEntry[] | undefined, columns: Record<string, Column>, pkKey: string): SortKey[] {
  const keys: SortKey[] = [];
  for (const entry of orderBy ?? []) keys.push({ key: entry.field, column: columns[entry.field], descending: entry.direction === 'desc' });
  if (!keys.some((key) => key.key === pkKey)) keys.push({ key: pkKey, column: columns[pkKey], descending: tiebreakDirection(orderBy) === 'desc' });
  return keys;
}

/** Where a cursor page starts: after the row whose sort-key values are `values` (in the order of `keys`). */
export interface Keyset {
  readonly keys: readonly SortKey[];
  readonly values: readonly unknown[];
}

/**
 * The row's value of a sort key as the column's encoder takes it back: a DATETIME read by a cached MySQL statement
 * comes as its ISO text (dialects/mysql-datetime.ts), where the column binds a Date.
 */
export function sortValueOf(key: SortKey, row: Record<string, unknown>): unknown {
  const value = row[key.key] ?? null;
  return key.column.dataType === 'date' && typeof value === 'string' ? new Date(value) : value;
}

/** How the i-th sort key's value is written: an inline parameter, or a placeholder of a cached statement. */
export type BindKey = (index: number, column: Column) => SQL;

/** The placeholder named for the i-th sort key's value. */
export function keysetPlaceholderName(index: number): string {
  return `k${index}`;
}

/** The cache key part of a keyset: which of the cursor's values are NULL changes the condition's text. */
export function keysetKey({ values }: Keyset): string {
  let key = 'after:';
  for (const value of values) key += value === null ? 'n' : 'v';
  return key;
}

const NO_ROW = sql`1 = 0`;

/**
 * The rows after the cursor's row: `values[i]` is the cursor's value of `keys[i]`, used only to tell NULL from a
 * value; `bind` writes each value.
 */
export function keysetCondition({ keys, values }: Keyset, dialect: Dialect, bind: BindKey): SQL {
  let rest: SQL | null = null;
  for (let index = keys.length - 1; index >= 0; index--) rest = after(keys[index], values[index] === null, index, rest, dialect, bind);
  return rest!;
}

/** The rows after the cursor on this key, or equal on it and after it on the keys that follow (`rest`, null for the last key). */
function after(key: SortKey, valueIsNull: boolean, index: number, rest: SQL | null, dialect: Dialect, bind: BindKey): SQL {
  const { column } = key;
  const nullsFirst = dialect.nullsFirstAscending !== key.descending;
  if (valueIsNull) {
    // A NULL cursor value: the values come after the NULLs where NULLs come first; nothing does where they come last.
    const equal = rest === null ? null : and(isNull(column), rest)!;
    if (!nullsFirst) return equal ?? NO_ROW;
    return equal === null ? isNotNull(column) : or(isNotNull(column), equal)!;
  }
  const value = bind(index, column);
  const beyond = key.descending ? lt(column, value) : gt(column, value);
  if (!column.notNull && !nullsFirst) {
    // The NULLs come after every value here: they are after the cursor too.
    const strictly = or(beyond, isNull(column))!;
    return rest === null ? strictly : or(strictly, and(eq(column, value), rest))!;
  }
  if (rest === null) return beyond;
  const from = key.descending ? lte(column, value) : gte(column, value);
  return and(from, or(beyond, rest))!;
}

/** The keyset with its values written inline (a call whose statement is not cached). */
export function inlineKeyset(keyset: Keyset, dialect: Dialect): SQL {
  return keysetCondition(keyset, dialect, (index, column) => sql`${sql.param(keyset.values[index], column)}`);
}

/** The keyset with placeholders `k0, k1, …` (a cached statement), and the values they take. */
export function keysetPlaceholders(keyset: Keyset, dialect: Dialect): SQL {
  return keysetCondition(keyset, dialect, (index, column) => columnPlaceholder(keysetPlaceholderName(index), column));
}

/** Binds `k0, k1, …` into a statement's named values. */
export function bindKeyset({ values }: Keyset, named: Record<string, unknown>): Record<string, unknown> {
  for (let index = 0; index < values.length; index++) if (values[index] !== null) named[keysetPlaceholderName(index)] = values[index];
  return named;
}
