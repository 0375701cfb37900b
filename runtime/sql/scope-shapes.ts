// The shape of a scope condition (issue 27): a scope function answers a `where` value per call, and its structure
// (fields, operators, nesting, `in` arity) is almost always the same from call to call; only the values change (the
// caller's id). A scope compiled here keeps, beside its SQL, that shape and its values, and the shape's condition with
// placeholders, built once per shape; a compiled statement (scoped-text.ts) then writes the condition's SQL text once
// per shape and binds the values per call instead of rendering the condition again. The statement is still prepared
// for the call only (spec §8 rule 2): only the text is reused.
import { entityKind, sql, type Column, type SQL } from 'drizzle-orm';
import { columnPlaceholder } from '../dialects/column-placeholder';
import type { Dialect } from '../dialects/dialect';
import type { WhereColumns } from '../model/column-schema';
import type { Where } from '../model/options';
import { whereShape } from './statement-key';
import { compileWhere, foldWhere, sqlFolder } from './where';

/** A scope condition's shape: its key, its values in the order its placeholders take them, and its condition with placeholders. */
export interface ScopeShape {
  readonly key: string;
  readonly values: readonly unknown[];
  /** The condition with placeholders named by scopePlaceholderName, in the order of `values`. */
  readonly template: SQL;
}

/** Shapes past this many per set of columns are not remembered (their scopes render per call, as before). */
const MAX_SHAPES = 256;

const templates = new WeakMap<WhereColumns, Map<string, SQL>>();

/** Scopes of primitive values met lately, per set of columns: the same caller's calls share one condition. */
const MAX_CONDITIONS = 1024;
const conditions = new WeakMap<WhereColumns, Map<string, SQL>>();
const shapes = new WeakMap<SQL, ScopeShape>();

/** The placeholder of a scope condition's i-th value: no column or statement placeholder is named so. */
export function scopePlaceholderName(index: number): string {
  return `\u0000scope${index}`;
}

function templateOf(where: Where, columns: WhereColumns, dialect: Dialect, key: string): SQL | undefined {
  let known = templates.get(columns);
  if (known === undefined) templates.set(columns, (known = new Map()));
  let template = known.get(key);
  if (template !== undefined || known.size >= MAX_SHAPES) return template;
  let index = 0;
  // As wherePlaceholders (statement-key.ts): column values keep the column's encoder, patterns bind as given.
  const bind = (_value: unknown, column: Column | null) => {
    const name = scopePlaceholderName(index++);
    return column === null ? sql.placeholder(name) : columnPlaceholder(name, column);
  };
  template = foldWhere(where, columns, dialect, sqlFolder(dialect, bind))!;
  known.set(key, template);
  return template;
}

/** A value a placeholder can stand for: not a Drizzle object (a column or SQL a scope put among its values is written into the SQL). */
function isPlainValue(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  const type = (value as { constructor?: unknown }).constructor;
  return typeof type !== 'function' || !(entityKind in type);
}

/**
 * The key of a scope's values when each is a string, a number, a boolean, a bigint or null, else null: typed (1 and '1'
 * differ) and length-prefixed, so no text inside a value can make two lists of values one key.
 */
function primitiveKey(shapeKey: string, values: readonly unknown[]): string | null {
  let key = `${shapeKey.length}:${shapeKey}`;
  for (const value of values) {
    const type = typeof value;
    if (value !== null && type !== 'string' && type !== 'number' && type !== 'boolean' && type !== 'bigint') return null;
    const text = value === null ? '' : String(value);
    key += `|${value === null ? 'null' : type}${text.length}:${text}`;
  }
  return key;
}

/**
 * compileWhere for a scope's `where` answer: the same SQL, with its shape remembered for compiled statements. A scope
 * of the same shape and primitive values as a recent one (the same caller again) answers that one's condition: Drizzle's
 * SQL objects are never changed once built, and the condition holds nothing of the call but those values.
 */
export function compileScope(where: Where, columns: WhereColumns, dialect: Dialect): SQL | undefined {
  const { key, values } = whereShape(where, columns, dialect);
  if (key === '') return undefined;
  const valuesKey = primitiveKey(key, values);
  let recent = conditions.get(columns);
  if (recent === undefined) conditions.set(columns, (recent = new Map()));
  const known = valuesKey === null ? undefined : recent.get(valuesKey);
  if (known !== undefined) return known;
  const condition = compileWhere(where, columns, dialect)!;
  if (valuesKey === null && !values.every(isPlainValue)) return condition;
  const template = templateOf(where, columns, dialect, key);
  if (template === undefined) return condition;
  shapes.set(condition, { key, values, template });
  if (valuesKey !== null) {
    if (recent.size >= MAX_CONDITIONS) recent.delete(recent.keys().next().value as string);
    recent.set(valuesKey, condition);
  }
  return condition;
}

/** The shape of a scope condition compileScope wrote, or undefined for any other condition (SQL a scope answered, a route scope ANDed in). */
export function scopeShapeOf(condition: SQL): ScopeShape | undefined {
  return shapes.get(condition);
}
