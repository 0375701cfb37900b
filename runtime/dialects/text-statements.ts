// The statements a dialect runs as text, without Drizzle (issues 11 and 27): the text and its values, what a statement
// run once answers, and a prepared statement of rows or changes.

/** SQL text with the database's own placeholders, and this call's values for them in order. */
export interface TextStatement {
  readonly text: string;
  readonly values: readonly unknown[];
}

/** What a statement run once answers. */
export interface OnceAnswer {
  /** Its rows, as arrays in select (or RETURNING) order; none for a write without RETURNING. */
  readonly rows: unknown[][];
  /** Rows written (matched, for an update), or rows answered by a read. */
  readonly changes: number;
  /** MySQL: the key an auto-increment column gave an insert; undefined elsewhere. */
  readonly insertId?: unknown;
}

/** A prepared statement run without Drizzle: values in, rows (arrays) or a change count out. */
export interface RawStatement {
  /** The rows it answers; SQLite answers synchronously. */
  rows(values: readonly unknown[]): unknown[][] | Promise<unknown[][]>;
  /** Runs a statement that answers no rows: how many rows it changed. */
  run(values: readonly unknown[]): number | Promise<number>;
  /** Frees what the database holds for it, once the statement cache has dropped it (MySQL: mysql-statements.ts). */
  release?(): void;
}
