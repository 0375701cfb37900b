// contains, startsWith, endsWith: substring matches on string columns. The dialect writes the SQL,
// because escaping and case rules differ by database (runtime/dialects/*).
import type { OperatorDef } from './operator';

export type PatternKind = 'contains' | 'startsWith' | 'endsWith';

export const patternOperators = [
  { name: 'contains', value: 'text', requiresString: true, toSql: (column, text, dialect) => dialect.matchPattern(column, 'contains', text) },
  { name: 'startsWith', value: 'text', requiresString: true, toSql: (column, text, dialect) => dialect.matchPattern(column, 'startsWith', text) },
  { name: 'endsWith', value: 'text', requiresString: true, toSql: (column, text, dialect) => dialect.matchPattern(column, 'endsWith', text) },
] as const satisfies readonly OperatorDef[];
