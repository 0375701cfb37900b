// What each database dialect must provide. Every difference between SQLite, MySQL/MariaDB and
// PostgreSQL lives behind this interface, one file per dialect; nothing else branches on the database.
import { and, eq, getTableColumns, type Column, type SQL, type Table } from 'drizzle-orm';
import { columnPlaceholder } from '../statements/column-placeholder';
import type { JsonSchema } from '../crud/options';
import type { PatternKind } from '../query/operators/pattern';
import { TesseraError } from '../errors';
import type { DatabaseTimeouts, EffectiveTimeouts } from './database-timeouts';

export type DialectName = 'sqlite' | 'mysql' | 'postgres';

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

/** spec §8 rule 1 for a single-row write: the operation and the columns it sets, never their values. */
export function writeShape(operation: 'insert' | 'update', values: Record<string, unknown>): string {
  let shape = `${operation}|`;
  for (const key in values) if (Object.hasOwn(values, key)) shape += `${key.length}:${key}`;
  return shape;
}

/** Placeholders named after the columns a write sets, each mapped by its column's encoder. */
export function valuePlaceholders(table: Table, values: Record<string, unknown>): Record<string, SQL> {
  const columns = getTableColumns(table);
  const placeholders: Record<string, SQL> = {};
  for (const key in values) if (Object.hasOwn(values, key)) placeholders[key] = columnPlaceholder(key, columns[key]);
  return placeholders;
}

/** The id placeholder's name: a column key cannot start with a colon in practice, so it never meets a set value. */
export const ID_PLACEHOLDER = ':id';

/** `pk = :id`, the id mapped by the key column's encoder. */
export function byIdPlaceholder(pk: Column): SQL {
  return eq(pk, columnPlaceholder(ID_PLACEHOLDER, pk));
}

/** An update's placeholder values: the set columns and the id. */
export function updateValues(values: Record<string, unknown>, id: unknown): Record<string, unknown> {
  return { ...values, [ID_PLACEHOLDER]: id };
}

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
   * Whether a cached page writes its LIMIT into the SQL (and so into the statement's key) instead of binding it.
   * SQLite's planner reads the LIMIT value: a bound one makes it recompile the statement at every execution.
   */
  readonly inlinesLimit: boolean;
  /** Whether a write answers its row itself (`RETURNING`): SQLite and PostgreSQL; MySQL reads it back. */
  readonly hasReturning: boolean;
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

/** A prepared statement run without Drizzle: values in, rows (arrays) or a change count out. */
export interface RawStatement {
  /** The rows it answers; SQLite answers synchronously. */
  rows(values: readonly unknown[]): unknown[][] | Promise<unknown[][]>;
  /** Runs a statement that answers no rows: how many rows it changed. */
  run(values: readonly unknown[]): number | Promise<number>;
}

/** A driver message whose capture groups are identifiers only, and the reason it becomes. */
export interface DriverReason {
  readonly code: string | number;
  readonly message: RegExp;
  readonly reason: (identifiers: string[]) => string;
}

/** `code: reason` for the first pattern the error matches, else just the driver code; null without one. */
export function describeWith(error: unknown, codeOf: (driver: Record<string, unknown>) => unknown, reasons: readonly DriverReason[]): string | null {
  const driver = driverErrorOf(error);
  const code = driver === null ? undefined : codeOf(driver);
  if (code === undefined || code === null) return null;
  const message = typeof driver?.message === 'string' ? driver.message : '';
  for (const candidate of reasons) {
    const match = candidate.code === code ? candidate.message.exec(message) : null;
    if (match !== null) return `${String(code)}: ${candidate.reason(match.slice(1))}`;
  }
  return String(code);
}

/** `pk = id`, ANDed with the scope when there is one. */
export function rowCondition(plan: Pick<WritePlan, 'pk' | 'scope'>, id: unknown): SQL {
  const byId = eq(plan.pk, id);
  return plan.scope === undefined ? byId : (and(byId, plan.scope) as SQL);
}

/** Walks an error's `cause` chain (drizzle wraps driver errors in DrizzleQueryError) to the driver's own error. */
export function driverErrorOf(error: unknown): Record<string, unknown> | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    const candidate = current as Record<string, unknown>;
    if (candidate.code !== undefined || candidate.errno !== undefined) return candidate;
    current = candidate.cause;
  }
  return null;
}

/** Runs a write that may throw OutsideScope; such a write was rolled back and answers null. */
export async function nullWhenOutsideScope<T>(write: () => T | Promise<T>): Promise<T | null> {
  try {
    return await write();
  } catch (error) {
    if (error instanceof OutsideScope) return null;
    throw error;
  }
}

const CONFLICT_MESSAGES = {
  unique: 'A row with the same unique value already exists',
  'foreign-key': 'The change would break a reference between rows',
} as const;

/** Driver codes (SQLite code, MySQL errno or PostgreSQL SQLSTATE) that Tessera answers as client errors. */
export interface DriverCodes {
  readonly unique: ReadonlySet<string | number>;
  readonly foreignKey: ReadonlySet<string | number>;
  /** A value the column cannot hold (too long, out of range, forbidden character): the schema's backstop. */
  readonly invalidValue: ReadonlySet<string | number>;
}

/**
 * How a driver says that the database cannot be reached right now (refused or lost connection, pool
 * timeout, server shutting down): the request may succeed when retried, so it answers 503.
 */
export interface UnavailableSignals {
  /** `code` or `errno` values: socket errors, the driver's own connection codes, the server's shutdown codes. */
  readonly codes: ReadonlySet<string | number>;
  /** Exact messages of the driver's errors that carry no code (pool closed, connection terminated). */
  readonly messages: ReadonlySet<string>;
}

/** What every networked driver reports when the socket to the database fails (Node's own error codes). */
export const SOCKET_ERROR_CODES: readonly string[] = ['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENOTFOUND', 'EAI_AGAIN'];

/**
 * SERVICE_UNAVAILABLE (503, with Retry-After) when some error of the `cause` chain is one of the driver's
 * unavailability signals; null otherwise. The message is fixed: the driver's may name the host or the SQL.
 */
export function unavailableFrom(error: unknown, signals: UnavailableSignals): TesseraError | null {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    const candidate = current as { code?: unknown; errno?: unknown; message?: unknown; cause?: unknown };
    const isSignal =
      signals.codes.has(candidate.code as string) || signals.codes.has(candidate.errno as number) || signals.messages.has(candidate.message as string);
    if (isSignal) return new TesseraError('SERVICE_UNAVAILABLE', undefined, undefined, { cause: error });
    current = candidate.cause;
  }
  return null;
}

/**
 * CONTRACT §4: unique and foreign-key violations answer CONFLICT and values a column cannot hold
 * VALIDATION_ERROR, each with a fixed message (never the driver's, which names values); null otherwise.
 */
export function clientErrorFrom(error: unknown, code: unknown, codes: DriverCodes): TesseraError | null {
  if (typeof code !== 'string' && typeof code !== 'number') return null;
  if (codes.unique.has(code)) return new TesseraError('CONFLICT', CONFLICT_MESSAGES.unique, undefined, { cause: error });
  if (codes.foreignKey.has(code)) return new TesseraError('CONFLICT', CONFLICT_MESSAGES['foreign-key'], undefined, { cause: error });
  if (codes.invalidValue.has(code)) {
    const message = 'a value does not fit its column';
    return new TesseraError('VALIDATION_ERROR', message, [{ path: '', message }], { cause: error });
  }
  return null;
}
