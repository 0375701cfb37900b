// in, notIn: a non-empty list of values (at most MAX_IN_VALUES, enforced by the input schema).
import { inArray, notInArray } from 'drizzle-orm';
import type { OperatorDef } from './operator';

/** CONTRACT §2: `in` / `notIn` take at most this many values. */
export const MAX_IN_VALUES = 1000;

export const membershipOperators = [
  { name: 'in', value: 'list', requiresString: false, toSql: (column, values) => inArray(column, values) },
  { name: 'notIn', value: 'list', requiresString: false, toSql: (column, values) => notInArray(column, values) },
] as const satisfies readonly OperatorDef[];
