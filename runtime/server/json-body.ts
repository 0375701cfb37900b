// JSON body parsing for action routes (CONTRACT §4): 415 for a body that is not JSON, 413 above the
// limit, 400 for malformed JSON, for bytes that are not UTF-8 and for lone surrogates (issue 32: never replaced
// by U+FFFD and stored). A request without a body reads as `{}`.
import { isUtf8 } from 'node:buffer';
import express, { type NextFunction, type Request, type RequestHandler } from 'express';
import { TesseraError } from '../errors';
import { isWellFormedValue, mayHoldSurrogateEscape } from './exact-text';

const JSON_TYPES = ['application/json', 'application/*+json'];

/** A body is present when it is chunked or has a non-zero length (a bare `Content-Length: 0` is no body). */
function hasBody(headers: Record<string, string | string[] | undefined>): boolean {
  if (headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return typeof length === 'string' && length !== '0';
}

/** The content types read without body-parser (see readPlainJson), exactly as clients usually send them. */
const PLAIN_JSON_TYPES = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);

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
    // A body that came in one chunk (most do) is read in place: no copy of it per request.
    const bytes = chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, received);
    // toString would replace each invalid sequence with U+FFFD; isUtf8 is one native pass over the bytes.
    if (!isUtf8(bytes)) return next(bodyError(NOT_UTF8));
    const text = bytes.toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return next(bodyError('entity.parse.failed'));
    }
    if (mayHoldSurrogateEscape(text) && !isWellFormedValue(body)) return next(bodyError(LONE_SURROGATE));
    req.body = body;
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

/** The error types of bodies that are not exact text, answered BAD_REQUEST (bodyParserError). */
const NOT_UTF8 = 'tessera.body.not-utf8';
const LONE_SURROGATE = 'tessera.body.lone-surrogate';

/** Requests whose (inflated) body bytes hold a surrogate escape: their parsed body is checked after body-parser. */
const mayHoldSurrogate = new WeakSet<object>();

/** body-parser's `verify`: sees the bytes before they are decoded, so invalid UTF-8 is refused instead of replaced. */
function verifyBytes(req: object, _res: unknown, bytes: Buffer, encoding: string): void {
  if (encoding === 'utf-8' && !isUtf8(bytes)) throw bodyError(NOT_UTF8);
  if (mayHoldSurrogateEscape(bytes.toString('latin1'))) mayHoldSurrogate.add(req);
}

export function jsonBody(limit: number | string): RequestHandler {
  // Any JSON text is parsed (RFC 8259: `5`, `"x"` and `null` are JSON too); one that is not an object is refused
  // by the input's schema, VALIDATION_ERROR `input must be an object`, as an array is: it is not malformed.
  const parse = express.json({ limit, strict: false, type: JSON_TYPES, verify: verifyBytes });
  return (req, res, next) => {
    if (!hasBody(req.headers)) {
      req.body = {};
      return next();
    }
    if (isPlainJson(req.headers, limit)) return readPlainJson(req, next);
    if (!req.is(JSON_TYPES)) return next(new TesseraError('UNSUPPORTED_MEDIA_TYPE', 'the request body must be application/json'));
    parse(req, res, (error?: unknown) => {
      if (error === undefined && mayHoldSurrogate.has(req) && !isWellFormedValue(req.body)) return next(bodyError(LONE_SURROGATE));
      next(error);
    });
  };
}

/** Maps body-parser's errors (by their `type`) to the contract's codes; undefined for other errors. */
export function bodyParserError(error: unknown): TesseraError | undefined {
  const type = (error as { type?: unknown } | null)?.type;
  switch (type) {
    case 'entity.parse.failed':
      return new TesseraError('BAD_REQUEST', 'the request body is not valid JSON');
    case NOT_UTF8:
      return new TesseraError('BAD_REQUEST', 'the request body is not valid UTF-8');
    case LONE_SURROGATE:
      return new TesseraError('BAD_REQUEST', 'the request body holds a lone surrogate escape (\\uD800 to \\uDFFF without its pair)');
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
