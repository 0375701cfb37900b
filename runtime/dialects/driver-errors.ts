// How a driver's error becomes Tessera's (CONTRACT §4): CONFLICT, VALIDATION_ERROR or SERVICE_UNAVAILABLE by the
// driver's codes, and a log line built from identifiers only; each dialect gives its codes, these read them.
import { TesseraError } from '../errors';

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
