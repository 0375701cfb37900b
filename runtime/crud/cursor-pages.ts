// Cursor paging of list (CONTRACT §10): what a cursor input asks for (the order's sort keys, the list's shape, the
// row to start after), the sort-key columns a page reads beside the selected ones (never serialized, so a sortable
// column that is not readable or is scrubbed is revealed only inside the sealed cursor), and the next cursor.
import type { DbRow } from '../dialects/dialect';
import type { Where } from '../model/options';
import { sortKeysOf, sortValueOf, type Keyset, type SortKey } from '../sql/keyset';
import type { OrderByEntry } from '../sql/order-by';
import type { ResourcePlan } from '../sql/resource-plan';
import type { SelectedColumn } from '../sql/select-shapes';
import { orderKey } from '../sql/statement-key';
import { cursorError, decodeCursor, encodeCursor, shapeDigest } from './cursor-codec';

/** A list call that asked for a cursor (`cursor: true` or a cursor it was given). */
export interface CursorRequest {
  readonly keys: readonly SortKey[];
  /** The digest of the list's order and where, sealed into the next cursor and checked against the given one. */
  readonly shape: string;
  /** Where the page starts: after the given cursor's row, or null for the first page. */
  readonly after: Keyset | null;
}

const OTHER_SHAPE = 'cursor was issued for another where or orderBy: send the where and orderBy of the request that returned it';

/** Reads a list input's cursor; a cursor of another resource, shape or key, or an altered one, is a VALIDATION_ERROR. */
export function cursorRequest(rt: ResourcePlan, input: { cursor: string | true; where?: Where; orderBy?: OrderByEntry[] }): CursorRequest {
  const keys = sortKeysOf(input.orderBy, rt.columns, rt.pkKey);
  const shape = shapeDigest(orderKey(input.orderBy), input.where);
  if (input.cursor === true) return { keys, shape, after: null };
  const content = decodeCursor(rt.label, input.cursor);
  if (content.shape !== shape || content.values.length !== keys.length) throw cursorError(OTHER_SHAPE);
  return { keys, shape, after: { keys, values: content.values } };
}

/** The columns a cursor page reads: the selected ones and each sort key that is not among them. */
export function withSortColumns(columns: readonly SelectedColumn[], keys: readonly SortKey[]): readonly SelectedColumn[] {
  let widened: SelectedColumn[] | null = null;
  for (const { key, column } of keys) {
    if (columns.some((selected) => selected.key === key) || widened?.some((selected) => selected.key === key)) continue;
    widened ??= [...columns];
    widened.push({ key, column });
  }
  return widened ?? columns;
}

/**
 * The next cursor of a page read with one row more than `limit`: null when that row is missing (the last page),
 * else sealed from the page's last row; the extra row is dropped.
 */
export function takeNextCursor(rt: ResourcePlan, request: CursorRequest, rows: DbRow[], limit: number): string | null {
  if (rows.length <= limit) return null;
  rows.length = limit;
  const last = rows[limit - 1];
  return encodeCursor(rt.label, { shape: request.shape, values: request.keys.map((key) => sortValueOf(key, last)) });
}
