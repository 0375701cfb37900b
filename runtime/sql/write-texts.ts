// The SQL texts of the compiled handlers' writes (issue 27), kept per set of written columns, and the values they
// bind: the columns of an application function (`$defaultFn`, `$onUpdateFn`) evaluated per row as Drizzle would.
import { is, SQL, type Column } from 'drizzle-orm';
import type { PreparableQuery } from '../dialects/dialect';
import { parameterFiller, type ParameterFiller } from '../dialects/prepared-select';
import { valuePlaceholders } from '../dialects/write-statements';
import type { ResourcePlan } from './resource-plan';
import type { ScopedText } from './scoped-text';

/** The SQL texts of one set of written columns, each written on first use. */
export interface WriteTexts {
  /** RETURNING databases, no scope: the write answers the row itself. */
  returningRow?: Text;
  /** An insert alone (RETURNING databases: answering the key), for a read-back in its transaction. */
  insert?: Text;
  /** An update by id with the scope's place, for a read-back in its transaction. */
  update?: ScopedText;
  /** The write answering its row and the scope's verdict on it, with the scope's places (Dialect.checkedWrite). */
  checked?: ScopedText;
}

interface Text {
  readonly text: string;
  readonly fill: ParameterFiller;
}

export function textOf(query: PreparableQuery): Text {
  const { sql: text, params } = query.toSQL();
  return { text, fill: parameterFiller(params) };
}

/** Shapes kept per resource: SQL text, not prepared statements (spec §8's cache holds those). */
const TEXTS_PER_RESOURCE = 128;

/** The column values of a write with the application's functions applied, as Drizzle applies them; `hasSql`: one answered SQL. */
interface Filled {
  readonly values: Record<string, unknown>;
  readonly hasSql: boolean;
}

/**
 * A create's values: each column the data leaves out that has a `$defaultFn` gets its value, else one with an
 * `$onUpdateFn` and no SQL default gets that (Drizzle's insert). An update's: every column with an `$onUpdateFn`
 * the data leaves out (Drizzle's update). Undefined values count as left out, as in Drizzle.
 */
export function withApplicationValues(plan: ResourcePlan, operation: 'insert' | 'update', data: Record<string, unknown>, functions: readonly [string, Column][]): Filled {
  const values: Record<string, unknown> = {};
  for (const key in data) if (Object.hasOwn(data, key) && data[key] !== undefined) values[key] = data[key];
  let hasSql = false;
  for (const [key, column] of functions) {
    let value: unknown;
    // Drizzle's update calls every `$onUpdateFn` and keeps the answer where the data has no value.
    if (operation === 'update') value = column.onUpdateFn!();
    if (values[key] !== undefined) continue;
    if (operation === 'insert' && column.defaultFn !== undefined) value = column.defaultFn();
    else if (operation === 'insert' && column.onUpdateFn !== undefined && !column.default) value = column.onUpdateFn();
    else if (operation === 'insert') continue;
    values[key] = value;
    if (is(value, SQL)) hasSql = true;
  }
  return { values, hasSql };
}

/**
 * Drizzle's update builder calls every `$onUpdateFn` as it writes the SQL; writing a text must not call the
 * application's functions (they ran for this call already), so they are set aside while it is written.
 */
export function withoutUpdateFunctions<T>(functions: readonly [string, Column][], write: () => T): T {
  const kept = functions.map(([, column]) => column.onUpdateFn);
  for (const [, column] of functions) (column as { onUpdateFn?: unknown }).onUpdateFn = undefined;
  try {
    return write();
  } finally {
    functions.forEach(([, column], index) => ((column as { onUpdateFn?: unknown }).onUpdateFn = kept[index]));
  }
}

/** The columns with an application function, in declaration order. */
export function functionColumns(plan: ResourcePlan): readonly [string, Column][] {
  return Object.entries(plan.columns).filter(([, column]) => column.defaultFn !== undefined || column.onUpdateFn !== undefined);
}

/** Placeholders for the written values, except an SQL value (an application function's answer), written in. */
export function placeholdersOf(plan: ResourcePlan, values: Record<string, unknown>): Record<string, unknown> {
  const placeholders: Record<string, unknown> = valuePlaceholders(plan.table, values);
  for (const key in values) if (is(values[key], SQL)) placeholders[key] = values[key];
  return placeholders;
}

export class ShapeTexts {
  readonly #texts = new Map<string, WriteTexts>();

  /** The texts of this set of columns; an SQL value makes texts of this call's own. */
  of(shape: string, hasSql: boolean): WriteTexts {
    if (hasSql) return {};
    let texts = this.#texts.get(shape);
    if (texts === undefined) {
      if (this.#texts.size >= TEXTS_PER_RESOURCE) this.#texts.delete(this.#texts.keys().next().value as string);
      this.#texts.set(shape, (texts = {}));
    }
    return texts;
  }
}
