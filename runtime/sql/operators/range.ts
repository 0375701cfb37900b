// between: `[low, high]`, both ends inclusive.
import { between } from 'drizzle-orm';
import type { OperatorDef } from './operator';

export const rangeOperators = [
  { name: 'between', value: 'pair', requiresString: false, toSql: (column, [low, high]) => between(column, low, high) },
] as const satisfies readonly OperatorDef[];
