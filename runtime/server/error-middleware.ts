// The JSON error model of CONTRACT §4 for every failure that reaches Express: unknown routes, body
// errors, action errors. INTERNAL_ERROR answers a fixed message; the cause is logged without values.
// SERVICE_UNAVAILABLE (the database cannot be reached) answers 503 with Retry-After; every 401 names its scheme.
import type { ServerResponse } from 'node:http';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { DatabaseError, RETRY_AFTER_SECONDS, SetupError, toTesseraError, TesseraError } from '../errors';
import { bodyParserError } from './json-body';
import { UnavailableLog } from './unavailable-log';

export const notFoundRoute: RequestHandler = (req, _res, next) => {
  next(new TesseraError('NOT_FOUND', `no route for ${req.method} ${req.path}`));
};

/** A one-line description of an internal error that names its kind but never its message (which may hold SQL or values). */
function describeCause(error: TesseraError): string {
  const cause = error.cause as { name?: unknown; code?: unknown; errno?: unknown; cause?: unknown } | undefined;
  if (cause === undefined || cause === null) return 'unknown cause';
  // Our own words, without values: about the application's code, or the dialect's description of a database failure.
  if (cause instanceof SetupError || cause instanceof DatabaseError) return `${cause.name}: ${cause.message}`;
  const driver = (cause.cause ?? cause) as { name?: unknown; code?: unknown; errno?: unknown };
  const code = driver.code ?? driver.errno;
  return `${oneLine(cause.name ?? 'Error')}${code !== undefined ? ` (${oneLine(code)})` : ''}`;
}

/** A name or code as the application's error set it, on one line of the log whatever it holds. */
function oneLine(value: unknown): string {
  return String(value).replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').slice(0, 100);
}

/**
 * Under DEBUG=tessera (a developer's machine: cli-and-bundles.md), the stack of an internal error's cause, message
 * included, indented under its line; never otherwise, since a message may hold values.
 */
function debugDetail(error: TesseraError): string {
  const cause = error.cause;
  if (!(cause instanceof Error) || !/tessera/.test(process.env.DEBUG ?? '')) return '';
  return `\n${(cause.stack ?? `${cause.name}: ${cause.message}`).replace(/^/gm, '    ')}`;
}

/** Express's router throws a URIError (status 400) for a path it cannot percent-decode: the client's mistake. */
function malformedPathError(error: unknown): TesseraError | undefined {
  if (error instanceof URIError && (error as { status?: unknown }).status === 400) {
    return new TesseraError('BAD_REQUEST', 'the request path is not valid percent-encoding');
  }
  return undefined;
}

/**
 * Answers every error as JSON. Server-side failures (INTERNAL_ERROR, SERVICE_UNAVAILABLE) are logged to the
 * error log as one line naming the error's kind; SERVICE_UNAVAILABLE tells the client when to retry.
 * `noteErrorCode` is given when the application records telemetry (CONTRACT §8), which counts answers by error code.
 */
export function errorMiddleware(errorLog: ((message: string) => void) | null, noteErrorCode: ((res: ServerResponse, code: string) => void) | null = null): ErrorRequestHandler {
  // Issue 32: an outage's 503s are one line per cause and second (unavailable-log.ts).
  const unavailableLog = errorLog === null ? null : new UnavailableLog(errorLog);
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    const answer = bodyParserError(error) ?? malformedPathError(error) ?? toTesseraError(error);
    if (noteErrorCode !== null) noteErrorCode(res, answer.code);
    if (answer.status >= 500 && errorLog !== null) {
      const id = (req as { id?: string }).id; // the request id, so that the answer's X-Request-Id finds this line
      const cause = describeCause(answer);
      const line = `${answer.code} ${req.method} ${req.path}: ${cause}${id === undefined ? '' : ` id=${id}`}`;
      if (answer.code === 'SERVICE_UNAVAILABLE') unavailableLog!.note(cause, line);
      else errorLog(line + debugDetail(answer));
    }
    if (answer.code === 'SERVICE_UNAVAILABLE') res.setHeader('Retry-After', String(RETRY_AFTER_SECONDS));
    // RFC 9110 §15.5.2: a 401 carries a challenge. `auth` sets its own; a context factory's 401 gets the bare scheme.
    if (answer.status === 401 && !res.hasHeader('WWW-Authenticate')) res.setHeader('WWW-Authenticate', 'Bearer');
    res.status(answer.status).json(answer.toJSON());
  };
}
