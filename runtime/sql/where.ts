// Compiles a `where` value (CONTRACT §2) into one drizzle SQL condition. Input was validated first, so
// every field and operator here is allowed; scope conditions compile through the same function with
// every column of the table available. One walk serves both the SQL and the statement cache's shape key,
// so the two always see the same conditions with the same bound values in the same order.
import { and, not, or, type Column, type SQL } from 'drizzle-orm';
import type { ColumnCodec, WhereColumn, WhereColumns } from '../model/column-schema';
import type { Where } from '../model/options';
import type { Dialect, PatternKind } from '../dialects/dialect';
import { misconfiguration } from '../errors';
import { findSqlOperator, type OperatorDef } from './operators';

/** What a where tree folds into: SQL for a query, or a shape key for the statement cache. */
export interface WhereFolder<T> {
  /** One operator on one field, with its bound values in order (from `operatorParams`). */
  condition(key: string, target: WhereColumn, operator: OperatorDef, params: unknown[]): T;
  all(parts: T[]): T;
  any(parts: T[]): T;
  not(part: T): T;
}

/** The values an operator binds, in order: decoded to the driver's type, patterns escaped for the dialect. */
function operatorParams(operator: OperatorDef, value: unknown, codec: ColumnCodec | null, dialect: Dialect): unknown[] {
  switch (operator.value) {
    case 'flag':
      return [];
    case 'text':
      return [dialect.patternValue(operator.name as PatternKind, value as string)];
    case 'scalar':
      return [codec === null ? value : codec.decode(value)];
    case 'list':
    case 'pair':
      return codec === null ? [...(value as unknown[])] : (value as unknown[]).map((item) => codec.decode(item));
  }
}

function foldField<T>(key: string, target: WhereColumn, condition: Record<string, unknown>, dialect: Dialect, folder: WhereFolder<T>, parts: T[]): void {
  for (const name in condition) {
    if (!Object.hasOwn(condition, name)) continue;
    const operator = findSqlOperator(name);
    // Only reachable from a scope function: user input was validated against the field policy.
    if (operator === undefined) throw misconfiguration(`scope uses unknown operator "${name}"`);
    parts.push(folder.condition(key, target, operator, operatorParams(operator, condition[name], target.codec, dialect)));
  }
}

/** Folds a where value, or gives undefined when it constrains nothing. */
export function foldWhere<T>(where: Where | undefined, columns: WhereColumns, dialect: Dialect, folder: WhereFolder<T>): T | undefined {
  if (where === undefined) return undefined;
  const parts: T[] = [];
  for (const key in where) {
    if (!Object.hasOwn(where, key)) continue;
    const value = where[key];
    if (value === undefined) continue;
    if (key === 'AND' || key === 'OR') {
      const branches: T[] = [];
      for (const branch of value as Where[]) {
        const folded = foldWhere(branch, columns, dialect, folder);
        if (folded !== undefined) branches.push(folded);
      }
      if (branches.length > 0) parts.push(key === 'AND' ? folder.all(branches) : folder.any(branches));
    } else if (key === 'NOT') {
      const negated = foldWhere(value as Where, columns, dialect, folder);
      if (negated !== undefined) parts.push(folder.not(negated));
    } else {
      const target = columns[key];
      if (target === undefined) throw misconfiguration(`scope names unknown column "${key}"`);
      foldField(key, target, value as Record<string, unknown>, dialect, folder, parts);
    }
  }
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : folder.all(parts);
}

/**
 * Builds SQL; `bind` turns each operator value into what the SQL carries (the value itself, or a placeholder).
 * Its column is the one whose encoder the value goes through, or null for a pattern, which binds as text.
 */
export function sqlFolder(dialect: Dialect, bind: (value: unknown, column: Column | null) => unknown): WhereFolder<SQL> {
  return {
    condition: (_key, target, operator, params) => {
      const column = operator.value === 'text' ? null : target.column;
      return operator.toSql(target.column, params.map((param) => bind(param, column)), dialect);
    },
    all: (parts) => and(...parts) as SQL,
    any: (parts) => or(...parts) as SQL,
    not: (part) => not(part),
  };
}

const bindValue = (value: unknown) => value;
const folders = new WeakMap<Dialect, WhereFolder<SQL>>();

/** The condition for a where value with its values bound in place, or undefined when it constrains nothing. */
export function compileWhere(where: Where | undefined, columns: WhereColumns, dialect: Dialect): SQL | undefined {
  let folder = folders.get(dialect);
  if (folder === undefined) folders.set(dialect, (folder = sqlFolder(dialect, bindValue)));
  const condition = foldWhere(where, columns, dialect, folder);
  if (condition !== undefined) rowConditions.add(condition);
  return condition;
}

/** compileWhere's conditions: each reads only the row's own columns (no subquery), wherever it is written. */
const rowConditions = new WeakSet<SQL>();

/** Whether `condition` reads only the row's own columns: one compileWhere wrote, or an AND of such (andRowConditions). */
export function isRowCondition(condition: SQL): boolean {
  return rowConditions.has(condition);
}

/** `a AND b`, still known to read only the row's own columns when both do. */
export function andRowConditions(a: SQL, b: SQL): SQL {
  const both = and(a, b) as SQL;
  if (rowConditions.has(a) && rowConditions.has(b)) rowConditions.add(both);
  return both;
}
