// JSON body parsing for action routes (CONTRACT §4): 415 for a body that is not JSON, 413 above the
// limit, 400 for malformed JSON. A request without a body reads as `{}`.
import express, { type RequestHandler } from 'express';
import { TesseraError } from '../errors';

const JSON_TYPES = ['application/json', 'application/*+json'];

/** A body is present when it is chunked or has a non-zero length (a bare `Content-Length: 0` is no body). */
function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return typeof length === 'string' && length !== '0';
}

export function jsonBody(limit: number | string): RequestHandler {
  const parse = express.json({ limit, strict: true, type: JSON_TYPES });
  return (req, res, next) => {
    if (!hasBody(req.headers)) {
      req.body = {};
      return next();
    }
    if (!req.is(JSON_TYPES)) return next(new TesseraError('UNSUPPORTED_MEDIA_TYPE', 'the request body must be application/json'));
    parse(req, res, next);
  };
}

/** Maps body-parser's errors (by their `type`) to the contract's codes; undefined for other errors. */
export function bodyParserError(error: unknown): TesseraError | undefined {
  const type = (error as { type?: unknown } | null)?.type;
  switch (type) {
    case 'entity.parse.failed':
      return new TesseraError('BAD_REQUEST', 'the request body is not valid JSON');
    case 'entity.too.large':
      return new TesseraError('PAYLOAD_TOO_LARGE', 'the request body is larger than the server accepts');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new TesseraError('UNSUPPORTED_MEDIA_TYPE', 'the request body encoding is not supported');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new TesseraError('BAD_REQUEST', 'the request body could not be read');
    default:
      return undefined;
  }
}
