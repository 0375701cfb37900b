// JSON body parsing for action routes (CONTRACT §4): 415 for a body that is not JSON, 413 above the
// limit, 400 for malformed JSON. A request without a body reads as `{}`.
import express, { type NextFunction, type Request, type RequestHandler } from 'express';
import { TesseraError } from '../errors';

const JSON_TYPES = ['application/json', 'application/*+json'];

/** A body is present when it is chunked or has a non-zero length (a bare `Content-Length: 0` is no body). */
function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return typeof length === 'string' && length !== '0';
}

/** The content types read without body-parser (see readPlainJson), exactly as clients usually send them. */
const PLAIN_JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);

/** JSON whitespace, then the first character: strict mode takes only an object or an array, as body-parser's. */
const FIRST_CHARACTER = /^[\x20\x09\x0a\x0d]*(.)/;

/** An error body-parser would have raised, by its `type`, so bodyParserError answers it identically. */
function bodyError(type: string): Error {
  return Object.assign(new Error(type), { type });
}

/**
 * The common request: `application/json` in UTF-8, not compressed, with a Content-Length within the limit.
 * Read here, it skips body-parser's per-request media-type parsing and decoder set-up; everything else
 * (other charsets, gzip, chunked bodies, a limit given as a string) still goes through body-parser.
 */
function isPlainJson(headers: Request['headers'], limit: number | string): boolean {
  if (typeof limit !== 'number' || headers['content-encoding'] !== undefined || headers['transfer-encoding'] !== undefined) return false;
  const type = headers['content-type'];
  const length = Number(headers['content-length']);
  return type !== undefined && PLAIN_JSON_TYPES.has(type.toLowerCase()) && Number.isInteger(length) && length <= limit;
}

function readPlainJson(req: Request, next: NextFunction): void {
  const expected = Number(req.headers['content-length']);
  const chunks: Buffer[] = [];
  let received = 0;
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    chunks.push(chunk);
  };
  const onEnd = () => {
    cleanUp();
    if (received !== expected) return next(bodyError('request.size.invalid'));
    const text = Buffer.concat(chunks, received).toString('utf8');
    const first = FIRST_CHARACTER.exec(text)?.[1];
    if (first !== '{' && first !== '[') return next(bodyError('entity.parse.failed'));
    try {
      req.body = JSON.parse(text);
    } catch {
      return next(bodyError('entity.parse.failed'));
    }
    next();
  };
  const onAborted = () => {
    cleanUp();
    next(bodyError('request.aborted'));
  };
  const cleanUp = () => {
    req.off('data', onData);
    req.off('end', onEnd);
    req.off('aborted', onAborted);
    req.off('error', onAborted);
  };
  req.on('data', onData);
  req.on('end', onEnd);
  req.on('aborted', onAborted);
  req.on('error', onAborted);
}

export function jsonBody(limit: number | string): RequestHandler {
  const parse = express.json({ limit, strict: true, type: JSON_TYPES });
  return (req, res, next) => {
    if (!hasBody(req.headers)) {
      req.body = {};
      return next();
    }
    if (isPlainJson(req.headers, limit)) return readPlainJson(req, next);
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
