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
  PRECONDITION_FAILED: 412,
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

/**
 * Bounds of an error body, so the OpenAPI document can state them (`maxLength`, `maxItems`): a message or a
 * detail may echo input (an unknown key, a refused value), which is cut here rather than sent whole.
 */
export const MAX_ERROR_TEXT_LENGTH = 4096;
export const MAX_ERROR_DETAILS = 100;

/** `text` cut to MAX_ERROR_TEXT_LENGTH code units at most, ending in `…` when cut (never half a surrogate pair). */
function bounded(text: string): string {
  if (text.length <= MAX_ERROR_TEXT_LENGTH) return text;
  let end = MAX_ERROR_TEXT_LENGTH - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}…`;
}

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
  PRECONDITION_FAILED: 'The row changed since the ETag of If-Match was read',
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

  /**
   * The JSON body of CONTRACT §4: `{ error: { code, message, details? } }`, within the bounds the document
   * states: texts of at most MAX_ERROR_TEXT_LENGTH characters, at most MAX_ERROR_DETAILS details.
   */
  toJSON(): { error: { code: ErrorCode; message: string; details?: ErrorDetail[] } } {
    const error: { code: ErrorCode; message: string; details?: ErrorDetail[] } = { code: this.code, message: bounded(this.message) };
    if (this.details !== undefined) {
      error.details = this.details.slice(0, MAX_ERROR_DETAILS).map((detail) => ({ path: bounded(detail.path), message: bounded(detail.message) }));
    }
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
