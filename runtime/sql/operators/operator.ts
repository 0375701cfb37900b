// The shape every filter operator shares: its name, the kind of value it takes and how it becomes SQL.
import type { Column, SQL } from 'drizzle-orm';
import type { Dialect } from '../../dialects/dialect';

/**
 * The value an operator takes (CONTRACT §2): `scalar` one column value, `list` a non-empty array,
 * `pair` `[low, high]`, `text` a string pattern, `flag` the literal `true`.
 */
export type OperatorValueKind = 'scalar' | 'list' | 'pair' | 'text' | 'flag';

export interface OperatorDef {
  readonly name: string;
  readonly value: OperatorValueKind;
  /** spec §2.4 rule 1: contains / startsWith / endsWith need a string column. */
  readonly requiresString: boolean;
  /**
   * SQL for the operator's bound values, in order (see `operatorParams` in ../where.ts): each is a value
   * decoded to the column's driver-side type (Date, bigint, Buffer), or a placeholder standing for one.
   */
  toSql(column: Column, params: any[], dialect: Dialect): SQL;
}
