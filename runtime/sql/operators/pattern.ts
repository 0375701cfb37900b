// contains, startsWith, endsWith: substring matches on string columns. The dialect writes the SQL,
// because escaping and case rules differ by database (runtime/dialects/*).
import type { OperatorDef } from './operator';

export const patternOperators = [
  { name: 'contains', value: 'text', requiresString: true, toSql: (column, [pattern], dialect) => dialect.matchPattern(column, pattern) },
  { name: 'startsWith', value: 'text', requiresString: true, toSql: (column, [pattern], dialect) => dialect.matchPattern(column, pattern) },
  { name: 'endsWith', value: 'text', requiresString: true, toSql: (column, [pattern], dialect) => dialect.matchPattern(column, pattern) },
] as const satisfies readonly OperatorDef[];
