// The vocabulary of the 14 filter operators (spec §2.4, CONTRACT §2): each one's name, the value it takes and
// whether it needs a string column, without any SQL. The input schemas, the field policies and the OpenAPI
// document read this table; sql/operators.ts gives each name its SQL, keyed by the same names.

/**
 * The value an operator takes (CONTRACT §2): `scalar` one column value, `list` a non-empty array,
 * `pair` `[low, high]`, `text` a string pattern, `flag` the literal `true`.
 */
export type OperatorValueKind = 'scalar' | 'list' | 'pair' | 'text' | 'flag';

export interface OperatorSpec {
  readonly name: string;
  readonly value: OperatorValueKind;
  /** spec §2.4 rule 1: contains / startsWith / endsWith need a string column. */
  readonly requiresString: boolean;
}

/** CONTRACT §2: `in` / `notIn` take at most this many values. */
export const MAX_IN_VALUES = 1000;

export const OPERATORS = [
  // eq, ne, gt, gte, lt, lte: one scalar compared with the column.
  { name: 'eq', value: 'scalar', requiresString: false },
  { name: 'ne', value: 'scalar', requiresString: false },
  { name: 'gt', value: 'scalar', requiresString: false },
  { name: 'gte', value: 'scalar', requiresString: false },
  { name: 'lt', value: 'scalar', requiresString: false },
  { name: 'lte', value: 'scalar', requiresString: false },
  // in, notIn: a non-empty list of values (at most MAX_IN_VALUES, enforced by the input schema).
  { name: 'in', value: 'list', requiresString: false },
  { name: 'notIn', value: 'list', requiresString: false },
  // between: `[low, high]`, both ends inclusive.
  { name: 'between', value: 'pair', requiresString: false },
  // contains, startsWith, endsWith: substring matches on string columns.
  { name: 'contains', value: 'text', requiresString: true },
  { name: 'startsWith', value: 'text', requiresString: true },
  { name: 'endsWith', value: 'text', requiresString: true },
  // isNull, isNotNull: take the value `true` and test the column for NULL.
  { name: 'isNull', value: 'flag', requiresString: false },
  { name: 'isNotNull', value: 'flag', requiresString: false },
] as const satisfies readonly OperatorSpec[];

/** An operator name, a literal type: `'eq' | 'ne' | … | 'isNotNull'`. */
export type OperatorName = (typeof OPERATORS)[number]['name'];

/** Operator names in their canonical order. */
export const OPERATOR_NAMES: readonly OperatorName[] = OPERATORS.map((op) => op.name);

const byName: Record<string, OperatorSpec> = Object.create(null);
for (const op of OPERATORS) byName[op.name] = op;

/** The operator's specification, or undefined for a name that is not an operator. */
export function findOperator(name: string): OperatorSpec | undefined {
  return byName[name];
}
