// The one error table of CONTRACT §4 and the error class every action throws.
// The status always comes from the table, so the two can never disagree.

/** CONTRACT §4: every error code and its HTTP status. */
export const ERROR_CODES = Object.freeze({
  BAD_REQUEST: 400,
  VALIDATION_ERROR: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const);

/**
 * The `Retry-After` of a SERVICE_UNAVAILABLE answer, in seconds: a database restart or failover usually
 * takes a few, and clients and proxies retry a 503 after this delay.
 */
export const RETRY_AFTER_SECONDS = 1;

export type ErrorCode = keyof typeof ERROR_CODES;

/** One entry of a VALIDATION_ERROR's `details`: a JSON Pointer into the input and what is wrong there. */
export interface ErrorDetail {
  path: string;
  message: string;
}

const DEFAULT_MESSAGES: Record<ErrorCode, string> = {
  BAD_REQUEST: 'Malformed request',
  VALIDATION_ERROR: 'Invalid input',
  UNAUTHORIZED: 'Unauthorized',
  FORBIDDEN: 'Forbidden',
  NOT_FOUND: 'Not found',
  CONFLICT: 'Conflict',
  PAYLOAD_TOO_LARGE: 'Payload too large',
  UNSUPPORTED_MEDIA_TYPE: 'Unsupported media type',
  RATE_LIMITED: 'Rate limit exceeded; retry later',
  INTERNAL_ERROR: 'Internal server error',
  SERVICE_UNAVAILABLE: 'The database cannot be reached; retry later',
};

/**
 * The error every Tessera action throws, in-process and over HTTP.
 *
 * @example
 * throw new TesseraError('UNAUTHORIZED', 'missing bearer token');
 */
export class TesseraError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: ErrorDetail[] | undefined;

  constructor(code: ErrorCode, message?: string, details?: ErrorDetail[], options?: { cause?: unknown }) {
    super(message ?? DEFAULT_MESSAGES[code], options);
    if (!(code in ERROR_CODES)) throw new TypeError(`unknown TesseraError code "${String(code)}"`);
    this.name = 'TesseraError';
    this.code = code;
    this.status = ERROR_CODES[code];
    this.details = details;
  }

  /** The JSON body of CONTRACT §4: `{ error: { code, message, details? } }`. */
  toJSON(): { error: { code: ErrorCode; message: string; details?: ErrorDetail[] } } {
    const error: { code: ErrorCode; message: string; details?: ErrorDetail[] } = { code: this.code, message: this.message };
    if (this.details !== undefined) error.details = this.details;
    return { error };
  }
}

/** Anything that is not already a TesseraError becomes INTERNAL_ERROR with a fixed message (never SQL, stack or values). */
export function toTesseraError(error: unknown): TesseraError {
  if (error instanceof TesseraError) return error;
  return new TesseraError('INTERNAL_ERROR', undefined, undefined, { cause: error });
}

/**
 * A mistake in the application's own definitions: thrown at definition time, or, when only a call can
 * reveal it (a hook returning a non-column, a scope naming an unknown column), as the cause of an
 * INTERNAL_ERROR. Its message names code, never request values, so the server log may show it.
 */
export class SetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SetupError';
  }
}

/**
 * A query the database refused for a reason that is not the caller's (a missing table, a lock): the cause of an
 * INTERNAL_ERROR. Its message is the dialect's value-free description (`SQLITE_ERROR: no such table: notes`), so
 * the server log may show it; the driver's own error stays on `cause`.
 */
export class DatabaseError extends Error {
  constructor(description: string, options: { cause: unknown }) {
    super(description, options);
    this.name = 'DatabaseError';
  }
}

/** An INTERNAL_ERROR caused by a mistake in the application's definitions. */
export function misconfiguration(message: string): TesseraError {
  return new TesseraError('INTERNAL_ERROR', undefined, undefined, { cause: new SetupError(message) });
}
