// eq, ne, gt, gte, lt, lte: one scalar compared with the column.
import { eq, gt, gte, lt, lte, ne } from 'drizzle-orm';
import type { OperatorDef } from './operator';

export const comparisonOperators = [
  { name: 'eq', value: 'scalar', requiresString: false, toSql: (column, [value]) => eq(column, value) },
  { name: 'ne', value: 'scalar', requiresString: false, toSql: (column, [value]) => ne(column, value) },
  { name: 'gt', value: 'scalar', requiresString: false, toSql: (column, [value]) => gt(column, value) },
  { name: 'gte', value: 'scalar', requiresString: false, toSql: (column, [value]) => gte(column, value) },
  { name: 'lt', value: 'scalar', requiresString: false, toSql: (column, [value]) => lt(column, value) },
  { name: 'lte', value: 'scalar', requiresString: false, toSql: (column, [value]) => lte(column, value) },
] as const satisfies readonly OperatorDef[];
