// Request-wide bounds on a where (issue 32): items per AND / OR, and in all conditions and bound values, each
// below what the database itself refuses (SQLite's expression depth of 1000 and its 32,766 variables, PostgreSQL's
// 65,535 parameters) or cannot plan in time (MariaDB's long IN lists), so a request the OpenAPI document allows never
// meets a database limit (a 500, or a statement that runs for minutes).
import type { DialectName } from '../dialects/dialect';
import { RELATION_FILTERS } from './relation-options';

/** Items of one AND or OR list: published as `maxItems` in the input schema. */
export const MAX_WHERE_ITEMS = 100;
/**
 * Conditions (one per operator of a field) in a whole where. SQLite nests an AND or OR chain one level per
 * condition, up to a depth of 1000: this leaves room for scopes and cursors.
 */
export const MAX_WHERE_CONDITIONS = 200;
/**
 * Values a whole where binds (each item of an in / notIn list is one), per dialect, below the database's own limit:
 * SQLite's 32,766 variables, PostgreSQL's 65,535 parameters. MariaDB turns each IN list of 1,000 values or more into
 * a table of its own (in_predicate_conversion_threshold), and its optimizer's time grows steeply with their number
 * (measured: 6 lists 22 ms, 8 lists 0.35 s, 12 lists past 20 s): 6,000 keeps a where to 6 such lists.
 */
export const MAX_WHERE_VALUES: Readonly<Record<DialectName, number>> = { sqlite: 32_000, mysql: 6_000, postgres: 65_000 };

export interface WhereLimits {
  readonly conditions: number;
  readonly values: number;
}

export function whereLimitsFor(dialect: DialectName): WhereLimits {
  return { conditions: MAX_WHERE_CONDITIONS, values: MAX_WHERE_VALUES[dialect] };
}

/** Operators that bind no value (`isNull: true` is a flag). */
const UNBOUND = new Set(['isNull', 'isNotNull']);

interface Totals {
  conditions: number;
  values: number;
}

function count(where: Record<string, unknown>, totals: Totals): void {
  for (const key in where) {
    const value = where[key];
    if (key === 'AND' || key === 'OR') for (const item of value as Record<string, unknown>[]) count(item, totals);
    else if (key === 'NOT') count(value as Record<string, unknown>, totals);
    else {
      for (const operator in value as Record<string, unknown>) {
        const operand = (value as Record<string, unknown>)[operator];
        // CONTRACT §9: a relation filter's inner where counts toward the same totals.
        if (RELATION_FILTERS.includes(operator)) {
          count(operand as Record<string, unknown>, totals);
          continue;
        }
        totals.conditions++;
        if (!UNBOUND.has(operator)) totals.values += Array.isArray(operand) ? operand.length : 1;
      }
    }
  }
}

/** Why a valid where exceeds the request-wide limits, or null. Run after validation: the where's shape is known. */
export function whereTotalsProblem(where: Record<string, unknown>, limits: WhereLimits): string | null {
  const totals: Totals = { conditions: 0, values: 0 };
  count(where, totals);
  if (totals.conditions > limits.conditions) return `a where holds at most ${limits.conditions} conditions (one per operator of a field) in all; this one holds ${totals.conditions}`;
  if (totals.values > limits.values) return `a where binds at most ${limits.values} values in all (each item of an in or notIn list is one); this one binds ${totals.values}`;
  return null;
}
