// createMany's multi-row INSERT (CONTRACT §10) as SQL text: written by Drizzle once per set of written columns, row
// count and answer, kept per resource, then bound per call from the rows through each column's encoder (as Drizzle's
// placeholders would be), without Drizzle's query builder: it walks every one of a 100-row insert's 600 values per call.
// Where the dialect binds a column's values as one array (PostgreSQL), one text per set of columns serves every count.
import { is, SQL, type Column } from 'drizzle-orm';
import { columnPlaceholder } from '../dialects/column-placeholder';
import { flatRowReader, parameterSlot, type RowReader } from '../dialects/prepared-select';
import type { ResourcePlan } from './resource-plan';

/** What the INSERT answers: the written rows (RETURNING the selection and key), their keys (RETURNING the key), or nothing (MySQL). */
export type InsertAnswer = 'rows' | 'keys' | 'none';

export interface BulkInsertText {
  /** What the text is written for: the answer, the row count ('*': any), the columns (a statement key's end). */
  readonly shape: string;
  readonly text: string;
  /** The statement's values for `rows` (as many as the text was written for, or any number for '*'), in parameter order. */
  bind(rows: readonly Record<string, unknown>[]): unknown[];
  /** An answered row (an array in RETURNING order) as Drizzle maps it, its key under the key's property; null for 'none'. */
  readonly read: RowReader | null;
}

/** One parameter: a column value of one row (through the column's encoder), or (`column` null) a value Drizzle wrote in (a column's default). One shape for all. */
interface Slot {
  readonly row: number;
  readonly key: string;
  readonly column: Column | null;
  readonly value: unknown;
}

/** Texts kept per resource: SQL text only (a prepared statement is the statement cache's, spec §8). */
const TEXTS_PER_RESOURCE = 128;

/** Per resource, by shape; null under a shape for any count: the dialect has no array form for those columns. */
const textsOf = new WeakMap<ResourcePlan, Map<string, BulkInsertText | null>>();

/** The placeholder of a row's column value: the row's index, a space, the column's key. */
function placeholderName(row: number, key: string): string {
  return `${row} ${key}`;
}

function slotOf(param: unknown, columns: Record<string, Column>): Slot {
  const slot = parameterSlot(param);
  if ('value' in slot) return { row: 0, key: '', column: null, value: slot.value };
  const space = slot.name.indexOf(' ');
  const key = slot.name.slice(space + 1);
  return { row: Number(slot.name.slice(0, space)), key, column: columns[key], value: undefined };
}

/** The values of `rows` for the slots: a null binds as null (columnPlaceholder's rule), any other value as its column encodes it. */
function bindSlots(slots: readonly Slot[], rows: readonly Record<string, unknown>[]): unknown[] {
  const values = new Array<unknown>(slots.length);
  for (let index = 0; index < slots.length; index++) {
    const { column } = slots[index];
    if (column === null) {
      values[index] = slots[index].value;
      continue;
    }
    const value = rows[slots[index].row][slots[index].key];
    values[index] = value === null ? null : column.mapToDriverValue(value);
  }
  return values;
}

/** The selection RETURNING answers for 'rows': the readable columns and the key (read back alike by readBack). */
export function selectionWithKey(rt: ResourcePlan): Record<string, Column> {
  return { ...rt.defaultSelection, [rt.pkKey]: rt.pkColumn };
}

/** Each column's values of `rows` as one array, null as null and any other value as its column encodes it. */
function bindArrays(keys: readonly string[], columns: readonly Column[], rows: readonly Record<string, unknown>[]): unknown[][] {
  return columns.map((column, index) => {
    const key = keys[index];
    const values = new Array<unknown>(rows.length);
    for (let row = 0; row < rows.length; row++) {
      const value = rows[row][key];
      values[row] = value === null ? null : column.mapToDriverValue(value);
    }
    return values;
  });
}

/** The columns the INSERT answers, in order: the selection and key for 'rows', the key for 'keys'. */
function answerSelection(rt: ResourcePlan, answer: InsertAnswer): Record<string, Column> {
  return answer === 'rows' ? selectionWithKey(rt) : { [rt.pkKey]: rt.pkColumn };
}

function readerOf(rt: ResourcePlan, selection: Record<string, Column>, answer: InsertAnswer): RowReader | null {
  const fields = Object.entries(selection).map(([key, column]) => ({ path: [key], field: column }));
  return answer === 'none' ? null : flatRowReader(fields, (column) => rt.dialect.rowDecoder(column));
}

/** The dialect's INSERT of any number of rows, one array per column; null where it has none for these columns. */
function writeArrayText(rt: ResourcePlan, shape: string, keys: readonly string[], answer: InsertAnswer): BulkInsertText | null {
  if (rt.dialect.arrayInsert === undefined || answer === 'none') return null;
  const columns = keys.map((key) => (rt.columns as Record<string, Column>)[key]);
  const selection = answerSelection(rt, answer);
  const text = rt.dialect.arrayInsert(rt.table, columns, Object.values(selection));
  return text === null ? null : { shape, text, bind: (rows) => bindArrays(keys, columns, rows), read: readerOf(rt, selection, answer) };
}

function writeText(rt: ResourcePlan, shape: string, columns: readonly string[], count: number, answer: InsertAnswer): BulkInsertText {
  const tableColumns = rt.columns as Record<string, Column>;
  const rows = Array.from({ length: count }, (_, row) => {
    const placeholders: Record<string, SQL> = {};
    for (const key of columns) placeholders[key] = columnPlaceholder(placeholderName(row, key), tableColumns[key]);
    return placeholders;
  });
  const insert = rt.db.insert(rt.table).values(rows);
  const selection = answerSelection(rt, answer);
  const query = answer === 'none' ? insert : rt.dialect.returningInsert(insert, selection);
  const { sql: text, params } = query.toSQL();
  const slots = params.map((param: unknown) => slotOf(param, tableColumns));
  return { shape, text, bind: (values) => bindSlots(slots, values), read: readerOf(rt, selection, answer) };
}

/** The text under `shape`, written by `write` on first use (the oldest shape dropped beyond TEXTS_PER_RESOURCE). */
function kept<T extends BulkInsertText | null>(texts: Map<string, BulkInsertText | null>, shape: string, write: () => T): T {
  if (texts.has(shape)) return texts.get(shape) as T;
  if (texts.size >= TEXTS_PER_RESOURCE) texts.delete(texts.keys().next().value as string);
  const text = write();
  texts.set(shape, text);
  return text;
}

/**
 * The INSERT of `count` rows that each set exactly `columns` (in the table's order), answering `answer`: the
 * dialect's text for any count where it has one, else the VALUES list of `count` rows.
 */
export function bulkInsertText(rt: ResourcePlan, columns: readonly string[], count: number, answer: InsertAnswer): BulkInsertText {
  let texts = textsOf.get(rt);
  if (texts === undefined) textsOf.set(rt, (texts = new Map()));
  const columnsKey = columns.join('\u0000');
  const anyCount = `${answer}|*|${columnsKey}`;
  const arrays = kept(texts, anyCount, () => writeArrayText(rt, anyCount, columns, answer));
  if (arrays !== null) return arrays;
  const shape = `${answer}|${count}|${columnsKey}`;
  return kept(texts, shape, () => writeText(rt, shape, columns, count, answer));
}

/**
 * The columns every row sets (a value not undefined), in the table's order: one text serves them all. Null when the
 * rows set different columns or a value is SQL (a hook's or an application function's): Drizzle writes those per call.
 */
export function sharedColumns(rt: ResourcePlan, rows: readonly Record<string, unknown>[]): string[] | null {
  const columns: string[] = [];
  const [first] = rows;
  for (const key in rt.columns) if (first[key] !== undefined) columns.push(key);
  for (const row of rows) {
    let set = 0;
    for (const key in row) {
      const value = row[key];
      if (value === undefined) continue;
      if (typeof value === 'object' && value !== null && is(value, SQL)) return null;
      set++;
    }
    if (set !== columns.length) return null;
    for (const key of columns) if (row[key] === undefined) return null;
  }
  return columns;
}
