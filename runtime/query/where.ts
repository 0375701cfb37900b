// Compiles a `where` value (CONTRACT §2) into one drizzle SQL condition. Input was validated first, so
// every field and operator here is allowed; scope conditions compile through the same function with
// every column of the table available.
import { and, not, or, type Column, type SQL } from 'drizzle-orm';
import type { ColumnCodec } from '../crud/column-schema';
import type { Where } from '../crud/options';
import type { Dialect } from '../dialects/dialect';
import { misconfiguration } from '../errors';
import { findOperator, type OperatorDef } from './operators';

/** A column a where clause may name, with the codec that turns its JSON values into driver values. */
export interface WhereColumn {
  readonly column: Column;
  readonly codec: ColumnCodec | null;
}

export type WhereColumns = Record<string, WhereColumn>;

function decodeValue(operator: OperatorDef, value: unknown, codec: ColumnCodec | null): unknown {
  if (codec === null || operator.value === 'text' || operator.value === 'flag') return value;
  if (operator.value === 'scalar') return codec.decode(value);
  return (value as unknown[]).map((item) => codec.decode(item));
}

function fieldCondition(target: WhereColumn, condition: Record<string, unknown>, dialect: Dialect): SQL[] {
  const parts: SQL[] = [];
  for (const name in condition) {
    if (!Object.hasOwn(condition, name)) continue;
    const operator = findOperator(name);
    // Only reachable from a scope function: user input was validated against the field policy.
    if (operator === undefined) throw misconfiguration(`scope uses unknown operator "${name}"`);
    parts.push(operator.toSql(target.column, decodeValue(operator, condition[name], target.codec), dialect));
  }
  return parts;
}

/** The condition for a where value, or undefined when it constrains nothing. */
export function compileWhere(where: Where | undefined, columns: WhereColumns, dialect: Dialect): SQL | undefined {
  if (where === undefined) return undefined;
  const parts: SQL[] = [];
  for (const key in where) {
    if (!Object.hasOwn(where, key)) continue;
    const value = where[key];
    if (value === undefined) continue;
    if (key === 'AND' || key === 'OR') {
      const branches = (value as Where[]).map((branch) => compileWhere(branch, columns, dialect)).filter((sql): sql is SQL => sql !== undefined);
      const joined = key === 'AND' ? and(...branches) : or(...branches);
      if (joined !== undefined) parts.push(joined);
    } else if (key === 'NOT') {
      const negated = compileWhere(value as Where, columns, dialect);
      if (negated !== undefined) parts.push(not(negated));
    } else {
      const target = columns[key];
      if (target === undefined) throw misconfiguration(`scope names unknown column "${key}"`);
      parts.push(...fieldCondition(target, value as Record<string, unknown>, dialect));
    }
  }
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : and(...parts);
}
