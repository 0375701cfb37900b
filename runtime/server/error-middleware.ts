// The JSON error model of CONTRACT §4 for every failure that reaches Express: unknown routes, body
// errors, action errors. INTERNAL_ERROR answers a fixed message; the cause is logged without values.
import type { ErrorRequestHandler, RequestHandler } from 'express';
import { SetupError, toTesseraError, TesseraError } from '../errors';
import { bodyParserError } from './json-body';

export const notFoundRoute: RequestHandler = (req, _res, next) => {
  next(new TesseraError('NOT_FOUND', `no route for ${req.method} ${req.path}`));
};

/** A one-line description of an internal error that names its kind but never its message (which may hold SQL or values). */
function describeCause(error: TesseraError): string {
  const cause = error.cause as { name?: unknown; code?: unknown; errno?: unknown; cause?: unknown } | undefined;
  if (cause === undefined || cause === null) return 'unknown cause';
  if (cause instanceof SetupError) return `${cause.name}: ${cause.message}`; // our own words about the app's code, no values
  const driver = (cause.cause ?? cause) as { name?: unknown; code?: unknown; errno?: unknown };
  const code = driver.code ?? driver.errno;
  return `${String(cause.name ?? 'Error')}${code !== undefined ? ` (${String(code)})` : ''}`;
}

/** Express's router throws a URIError (status 400) for a path it cannot percent-decode: the client's mistake. */
function malformedPathError(error: unknown): TesseraError | undefined {
  if (error instanceof URIError && (error as { status?: unknown }).status === 400) {
    return new TesseraError('BAD_REQUEST', 'the request path is not valid percent-encoding');
  }
  return undefined;
}

export function errorMiddleware(log: ((message: string) => void) | null): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    const answer = bodyParserError(error) ?? malformedPathError(error) ?? toTesseraError(error);
    if (answer.code === 'INTERNAL_ERROR' && log !== null) log(`INTERNAL_ERROR ${req.method} ${req.path}: ${describeCause(answer)}`);
    res.status(answer.status).json(answer.toJSON());
  };
}
