// The query shape of a call (spec §8 rule 1) as a cache key, with the values its placeholders take.
// Field keys are length-prefixed, so no field name can make two shapes one key.
import { sql, type Column } from 'drizzle-orm';
import { columnPlaceholder } from '../dialects/column-placeholder';
import type { FieldModel } from '../model/field-policy';
import type { Where } from '../model/options';
import type { Dialect } from '../dialects/dialect';
import type { OrderByEntry } from './order-by';
import type { WhereColumns } from '../model/column-schema';
import { foldWhere, sqlFolder, type WhereFolder } from './where';

/** A where value's shape and the values it binds: `values[i]` fills placeholder `p<i>`. */
export interface WhereShape {
  readonly key: string;
  readonly values: unknown[];
}

function shapeFolder(values: unknown[]): WhereFolder<string> {
  return {
    condition(key, _target, operator, params) {
      for (const param of params) values.push(param);
      // `in [1, 2]` and `in [1, 2, 3]` are different SQL: the arity belongs to the shape.
      return operator.value === 'list' ? `${key.length}:${key}.${operator.name}#${params.length}` : `${key.length}:${key}.${operator.name}`;
    },
    all: (parts) => `(${parts.join('&')})`,
    any: (parts) => `(${parts.join('|')})`,
    not: (part) => `!${part}`,
  };
}

/** The filter structure: fields, operators, nesting and `in` arity; never the values. */
export function whereShape(where: Where | undefined, columns: WhereColumns, dialect: Dialect): WhereShape {
  const values: unknown[] = [];
  return { key: foldWhere(where, columns, dialect, shapeFolder(values)) ?? '', values };
}

/** The placeholder named for the i-th value of a where shape (`prefix` tells an include level's apart, CONTRACT §9). */
export function wherePlaceholderName(index: number, prefix = 'p'): string {
  return `${prefix}${index}`;
}

/**
 * The where condition with placeholders `p0, p1, …` in the order whereShape lists the values (the same walk).
 * Column values keep the column's encoder (dates, booleans map as they would inline); patterns bind as given.
 */
export function wherePlaceholders(where: Where | undefined, columns: WhereColumns, dialect: Dialect, prefix = 'p') {
  let index = 0;
  const bind = (_value: unknown, column: Column | null) => {
    const name = wherePlaceholderName(index++, prefix);
    return column === null ? sql.placeholder(name) : columnPlaceholder(name, column);
  };
  return foldWhere(where, columns, dialect, sqlFolder(dialect, bind));
}

/** The selected fields: `*` for the readable fields (the default), else each field's key. */
export function selectKey(fields: readonly Pick<FieldModel, 'key'>[], readable: readonly FieldModel[]): string {
  if (fields === readable) return '*';
  let key = '';
  for (const field of fields) key += `${field.key.length}:${field.key}`;
  return key;
}

/** The ordering: each field with its direction (the primary-key tiebreak follows from these). */
export function orderKey(orderBy: readonly OrderByEntry[] | undefined): string {
  if (orderBy === undefined) return '';
  let key = '';
  for (const entry of orderBy) key += `${entry.field.length}:${entry.field}${entry.direction === 'desc' ? '-' : '+'}`;
  return key;
}
