// What each database dialect must provide. Every difference between SQLite, MySQL/MariaDB and
// PostgreSQL lives behind this interface, one file per dialect; nothing else branches on the database.
import type { Column, SQL, Table } from 'drizzle-orm';
import type { TesseraError } from '../errors';
import type { JsonSchema } from '../json-schema';
import type { DatabaseTimeouts, EffectiveTimeouts } from './database-timeouts';
import type { NestedRows } from './nested-rows';
import type { OnceAnswer, RawStatement, TextStatement } from './text-statements';
import type { TxWork } from './transaction-work';

export type { OnceAnswer, RawStatement, TextStatement } from './text-statements';

export type DialectName = 'sqlite' | 'mysql' | 'postgres';

/** The substring operators (contains, startsWith, endsWith): each dialect escapes and matches them its own way. */
export type PatternKind = 'contains' | 'startsWith' | 'endsWith';

/**
 * A drizzle database of any supported dialect. The three share the query-builder calls used here
 * (select/insert/update/delete/transaction), which drizzle types separately per dialect.
 */
export type AnyDatabase = any;

/** A row as drizzle returns it, keyed by the table's TypeScript property names. */
export type DbRow = Record<string, unknown>;

/** What a single-row write needs to know about the table and the caller's scope. */
export interface WritePlan {
  readonly table: any;
  readonly pk: Column;
  readonly pkKey: string;
  /** Columns to read back, keyed by property name. */
  readonly selection: Record<string, Column>;
  /** The caller's scope condition, or undefined when the resource has none for this call. */
  readonly scope: SQL | undefined;
  /** spec §8: the cached statement of a write shape, or null when this call is kept out of the cache. */
  readonly statements: StatementSource | null;
}

/** Finds or prepares the statement of a shape (`insert|…`, `update|…`, `delete`, `get|*`) in the resource's cache. */
export type StatementSource = (shape: string, build: () => PreparableQuery) => PreparedQuery;

/** update() found no row with that id inside the scope. */
export const ROW_MISSING = Symbol('row missing');

/**
 * Thrown inside a write transaction when the written row falls outside the caller's scope,
 * so that the transaction rolls back (CONTRACT §3). Never leaves the dialect.
 */
export class OutsideScope extends Error {}

/** A drizzle select builder that can be prepared. */
export interface PreparableQuery {
  prepare(name?: string): PreparedQuery;
  toSQL(): { sql: string; params: unknown[] };
}

/** A prepared drizzle query: placeholder values in, rows out (sync on better-sqlite3, awaited alike). */
export interface PreparedQuery {
  execute(values?: Record<string, unknown>): DbRow[] | Promise<DbRow[]>;
  /** Frees what the database holds for it, once the statement cache has dropped it (MySQL: mysql-statements.ts). */
  release?(): void;
}

export interface Dialect {
  readonly name: DialectName;
  /**
   * Narrows a column's inferred JSON Schema to what this database can store (integer ranges, text
   * capacity, forbidden characters), so such values are refused as VALIDATION_ERROR before any SQL runs.
   */
  refineColumnSchema(column: Column, schema: JsonSchema): JsonSchema;
  /** Why this database client cannot carry the column's values faithfully, or null when it can. */
  checkColumn(db: AnyDatabase, column: Column): string | null;
  /** The value contains / startsWith / endsWith bind: the text with its special characters escaped, wrapped in wildcards. */
  patternValue(kind: PatternKind, text: string): string;
  /** SQL matching the column against a pattern value (or a placeholder for one) from patternValue. */
  matchPattern(column: Column, pattern: unknown): SQL;
  /** Inserts one row; returns it read back inside the scope, or null when it fell outside (rolled back). */
  insert(db: AnyDatabase, plan: WritePlan, values: Record<string, unknown>): Promise<DbRow | null>;
  /** Updates the row with this id inside the scope; ROW_MISSING when there is none, null when it left the scope (rolled back). */
  update(db: AnyDatabase, plan: WritePlan, id: unknown, values: Record<string, unknown>): Promise<DbRow | null | typeof ROW_MISSING>;
  /** Deletes the row with this id inside the scope; false when there is none. */
  remove(db: AnyDatabase, plan: WritePlan, id: unknown): Promise<boolean>;
  /**
   * Runs a write of several statements in one transaction (transaction-work.ts): committed when the work returns,
   * rolled back when it throws (CONTRACT §10: all or nothing).
   */
  transact<T>(db: AnyDatabase, work: () => TxWork<T>): Promise<T>;
  /**
   * Whether a cached page writes its LIMIT into the SQL (and so into the statement's key) instead of binding it.
   * SQLite's planner reads the LIMIT value: a bound one makes it recompile the statement at every execution.
   * PostgreSQL's plan cache judges a prepared statement's generic plan against its custom ones: with a bound LIMIT
   * (or OFFSET) the custom plans look cheaper and it plans the statement again at every execution. Where the LIMIT is
   * written in, a page from the first row has no OFFSET (select-shapes.ts leavesOffsetOut).
   */
  readonly inlinesLimit: boolean;
  /**
   * How a to-many include takes its first rows per parent (CONTRACT §9): `window` ranks them with ROW_NUMBER() (MariaDB
   * has neither LATERAL nor LIMIT in an IN subquery); `subquery` walks each key's rows with LIMIT in a subquery, 3×
   * cheaper on SQLite, whose window functions cost more than the rows they rank.
   */
  readonly limitsPerKey: 'window' | 'subquery';
  /** Where included rows can come inside the parent's own statement, as JSON (PostgreSQL); undefined elsewhere. */
  readonly nestedRows?: NestedRows;
  /**
   * Whether NULL sorts before every value in ascending order (SQLite, MySQL/MariaDB; after them in descending
   * order), or after them (PostgreSQL's default). A cursor's keyset condition follows it (sql/keyset.ts).
   */
  readonly nullsFirstAscending: boolean;
  /** Whether a write answers its row itself (`RETURNING`): SQLite and PostgreSQL; MySQL reads it back. */
  readonly hasReturning: boolean;
  /**
   * Whether an insert may answer its row itself (`INSERT … RETURNING`): SQLite and PostgreSQL, and MariaDB from 10.5
   * (the server's version, learnt once per client: learnServer); MySQL has none. Answers synchronously once known.
   */
  insertReturns(db: AnyDatabase): boolean | Promise<boolean>;
  /** `insert` (Drizzle's insert builder, its values set) answering the columns of `selection` in order. */
  returningInsert(insert: any, selection: Record<string, Column>): PreparableQuery;
  /**
   * createMany's INSERT as one text for every row count, each column's values bound as one array (PostgreSQL's
   * unnest), RETURNING `returning` in order; null when a column has no array form (the VALUES list serves it).
   * Undefined where the database has no arrays.
   */
  readonly arrayInsert?: (table: Table, columns: readonly Column[], returning: readonly Column[]) => string | null;
  /** Learns what insertReturns needs of the server (MariaDB's version), before the first request; never throws. */
  learnServer(db: AnyDatabase): Promise<void>;
  /**
   * A decoder of this dialect's own for a column's driver values in the rows of Tessera's statements, or null for
   * the column's (Drizzle's). Those rows are only ever serialized: a decoder may give a value's JSON form directly
   * (MySQL's DATETIME text as its ISO text), where the column's codec passes it through.
   */
  rowDecoder(column: Column): ((value: unknown) => unknown) | null;
  /** Prepares a select with `sql.placeholder` values once; `name` is used where the database names statements. */
  prepare(query: PreparableQuery, name: string): PreparedQuery;
  /** A trivial query, for the health route. */
  ping(db: AnyDatabase): Promise<void>;
  /**
   * CONFLICT for unique and foreign-key violations, VALIDATION_ERROR for values the column cannot hold,
   * SERVICE_UNAVAILABLE when the database cannot be reached; null otherwise (INTERNAL_ERROR).
   */
  mapDriverError(error: unknown): TesseraError | null;
  /**
   * Why a query failed, for the server log: the driver's code and a reason built only from identifiers
   * (`no such table: notes`), never from the driver's message where it may quote values; null when unknown.
   */
  describeDriverError(error: unknown): string | null;
  /** The column names of a table as the database has them (one catalog query), or null when the table is missing. */
  listColumns(db: AnyDatabase, table: Table): Promise<string[] | null>;
  /**
   * A statement whose SQL text the compiler wrote (issue 11), run through the driver's own prepared statement
   * with positional values; `name` names it where the database names statements. Rows come as arrays in select
   * order, each value as Drizzle's driver settings leave it (the column's decoder still applies).
   */
  rawStatement(db: AnyDatabase, text: string, name: string): RawStatement;
  /**
   * A statement the compiled handlers wrote, prepared for this call only: what spec §8 rules 2 and 3 leave out of the
   * statement cache (a call with a scope condition, a table with application defaults). Rows come as arrays, as from
   * rawStatement; a write answers how many rows it changed (and, on MySQL, the key an auto-increment gave).
   */
  runOnce(db: AnyDatabase, statement: TextStatement): OnceAnswer | Promise<OnceAnswer>;
  /**
   * `write`, then the statement `next` makes of its answer, in one transaction on one connection (issue 17: the
   * answer is the row as this request left it). Answers the read's row; ROW_MISSING when `next` gives no statement
   * (the write found no row); null when the read finds none: the row fell outside the caller's scope, rolled back.
   * Synchronous on SQLite, whose driver is.
   */
  writeThenRead(db: AnyDatabase, write: TextStatement, next: (answer: OnceAnswer) => TextStatement | null): unknown[] | null | typeof ROW_MISSING | Promise<unknown[] | null | typeof ROW_MISSING>;
  /**
   * Where the database has RETURNING (PostgreSQL, SQLite): a scoped write that checks the scope in its own RETURNING,
   * in place of writeThenRead's read-back (issue 27); undefined elsewhere.
   */
  readonly checkedWrite?: CheckedWrite;
  /** Closes the database client behind `db` (a pool's connections, or the SQLite file), for a graceful shutdown. */
  close(db: AnyDatabase): Promise<void>;
  /**
   * Keeps a failure of the client's idle connections (the server restarted, a proxy dropped them) from
   * crashing the process: such a failure is reported, without values, and the client recovers on its own.
   */
  watchClient(db: AnyDatabase, report: (message: string) => void): void;
  /**
   * Bounds opening a connection, waiting for a free one and each statement on the driver's client (issue 32):
   * answers the bounds in force, or null where the database cannot hang that way (SQLite, in the process).
   */
  applyTimeouts(db: AnyDatabase, given: DatabaseTimeouts): EffectiveTimeouts | null;
  /** Where the client connects (`host:port/database`, a file for SQLite), never a user or a password: for start-up messages. */
  describeTarget(db: AnyDatabase): string;
}

/**
 * A write whose RETURNING row ends with the scope's verdict on the row as written: what writeThenRead answers, with
 * fewer statements. Used only for a scope that reads the row's own columns, which RETURNING sees as a read-back would.
 */
export interface CheckedWrite {
  /** The RETURNING value that judges the written row by the scope's `condition` (placed as is). */
  verdict(condition: SQL): SQL;
  /** Runs the write: its row without the verdict; null when the row fell outside (nothing written); ROW_MISSING when it wrote none. Synchronous on SQLite. */
  run(db: AnyDatabase, write: TextStatement): unknown[] | null | typeof ROW_MISSING | Promise<unknown[] | null | typeof ROW_MISSING>;
}
