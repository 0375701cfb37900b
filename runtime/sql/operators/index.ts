// The table of all 14 filter operators (spec §2.4), one family per file. Validation, SQL compilation
// and (later) code generation all read this table, so they cannot disagree.
import { comparisonOperators } from './comparison';
import { membershipOperators } from './membership';
import { nullnessOperators } from './nullness';
import type { OperatorDef } from './operator';
import { patternOperators } from './pattern';
import { rangeOperators } from './range';

export const OPERATORS = [
  ...comparisonOperators,
  ...membershipOperators,
  ...rangeOperators,
  ...patternOperators,
  ...nullnessOperators,
] as const;

export type OperatorName = (typeof OPERATORS)[number]['name'];

/** Operator names in their canonical order. */
export const OPERATOR_NAMES: readonly OperatorName[] = OPERATORS.map((op) => op.name);

const byName: Record<string, OperatorDef> = Object.create(null);
for (const op of OPERATORS) byName[op.name] = op;

/** The operator definition, or undefined for a name that is not an operator. */
export function findOperator(name: string): OperatorDef | undefined {
  return byName[name];
}

export { MAX_IN_VALUES } from './membership';
export type { OperatorDef, OperatorValueKind } from './operator';
