// What a dialect provides to read a call's included rows inside the parent's own statement (CONTRACT §9): each level
// as JSON the database builds, nested levels inside, decoded back to the values the driver would have given. Only
// PostgreSQL has it (postgres-nested-rows.ts); the other dialects send one statement per include level.
import type { Column, SQL, Table } from 'drizzle-orm';

/** One include level in SQL: the related rows of the enclosing row, each row a JSON array of its values. */
export interface NestedLevel {
  readonly table: Table;
  /** The row's values, in order: from `value()` for columns, the nested levels' expressions after them. */
  readonly values: readonly SQL[];
  /** The join (related column = the enclosing row's column), ANDed with the where and the related scope. */
  readonly condition: SQL;
  readonly order: readonly SQL[];
}

export interface NestedRows {
  /** The most values one level's row may carry (PostgreSQL functions take at most 100 arguments). */
  readonly maxValues: number;
  /** Whether the level's JSON can carry the column's values faithfully. */
  carries(column: Column): boolean;
  /** The column's value as the level's JSON carries it (a column it carries). */
  value(column: Column): SQL;
  /**
   * Turns a carried value (never null) into what the column's own row decoder answers for the driver's value; null
   * where the carried value already is that.
   */
  decoder(column: Column): ((value: unknown) => unknown) | null;
  /** A to-one level: the first related row (JSON array), or NULL when none matches. */
  toOne(level: NestedLevel): SQL;
  /** A to-many level: the first `limit` related rows, a JSON array of rows ([] when none matches). */
  toMany(level: NestedLevel, limit: SQL): SQL;
}
