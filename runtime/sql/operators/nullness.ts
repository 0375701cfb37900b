// isNull, isNotNull: take the value `true` and test the column for NULL.
import { isNotNull, isNull } from 'drizzle-orm';
import type { OperatorDef } from './operator';

export const nullnessOperators = [
  { name: 'isNull', value: 'flag', requiresString: false, toSql: (column) => isNull(column) },
  { name: 'isNotNull', value: 'flag', requiresString: false, toSql: (column) => isNotNull(column) },
] as const satisfies readonly OperatorDef[];
