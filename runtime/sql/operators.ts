// How each filter operator becomes SQL: one entry per name of the vocabulary (model/operators.ts), so the two
// tables cannot disagree (a name left out, or one the vocabulary lacks, does not compile). The substring
// operators leave their SQL to the dialect, because escaping and case rules differ by database (runtime/dialects/*).
import { between, eq, gt, gte, inArray, isNotNull, isNull, lt, lte, ne, notInArray, type Column, type SQL } from 'drizzle-orm';
import type { Dialect } from '../dialects/dialect';
import { OPERATORS, type OperatorName, type OperatorSpec } from '../model/operators';

/**
 * SQL for the operator's bound values, in order (see `operatorParams` in where.ts): each is a value decoded to the
 * column's driver-side type (Date, bigint, Buffer), or a placeholder standing for one.
 */
export type OperatorSql = (column: Column, params: any[], dialect: Dialect) => SQL;

const TO_SQL: Readonly<Record<OperatorName, OperatorSql>> = {
  eq: (column, [value]) => eq(column, value),
  ne: (column, [value]) => ne(column, value),
  gt: (column, [value]) => gt(column, value),
  gte: (column, [value]) => gte(column, value),
  lt: (column, [value]) => lt(column, value),
  lte: (column, [value]) => lte(column, value),
  in: (column, values) => inArray(column, values),
  notIn: (column, values) => notInArray(column, values),
  between: (column, [low, high]) => between(column, low, high),
  contains: (column, [pattern], dialect) => dialect.matchPattern(column, pattern),
  startsWith: (column, [pattern], dialect) => dialect.matchPattern(column, pattern),
  endsWith: (column, [pattern], dialect) => dialect.matchPattern(column, pattern),
  isNull: (column) => isNull(column),
  isNotNull: (column) => isNotNull(column),
};

/** An operator of the vocabulary with its SQL. */
export interface OperatorDef extends OperatorSpec {
  readonly toSql: OperatorSql;
}

const byName: Record<string, OperatorDef> = Object.create(null);
for (const spec of OPERATORS) byName[spec.name] = Object.freeze({ ...spec, toSql: TO_SQL[spec.name] });

/** The operator with its SQL, or undefined for a name that is not an operator. */
export function findSqlOperator(name: string): OperatorDef | undefined {
  return byName[name];
}
