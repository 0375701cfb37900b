// The JSON answer of a compiled handler, written straight to Node's response. Express's res.json gives
// the same bytes, but parses its own Content-Type back, checks freshness and looks up app settings on every
// call; with ETags off (createServer's choice) only a conditional request can change what it sends.
import type { Request, Response } from 'express';
import { answerEtag, etagOf, etagOfRowText, statusOf } from '../crud/response-meta';

const CONTENT_TYPE = 'application/json; charset=utf-8';

/** What `res.status(status).json(value)` sends, for a body already written as JSON text (a generated row writer's). */
export function sendJsonText(req: Request, res: Response, status: number, body: string): void {
  // A conditional request may be answered 304 by Express's freshness check: let Express decide those.
  const headers = req.headers;
  if (headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined) {
    res.status(status).set('Content-Type', CONTENT_TYPE).send(body);
    return;
  }
  res.statusCode = status;
  res.setHeader('Content-Type', CONTENT_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  // Express routes HEAD to GET handlers and answers it without a body.
  if (req.method === 'HEAD') res.end();
  else res.end(body);
}

/**
 * What `res.status(status).json(value)` sends, without its per-call work for the requests that cannot differ; an
 * answer whose status depends on what the action did (upsert's 201) carries it (crud/response-meta.ts).
 */
export function sendJson(req: Request, res: Response, status: number, value: unknown): void {
  const etag = etagOf(value);
  if (etag !== undefined && answeredNotModified(req, res, etag)) return;
  sendJsonText(req, res, statusOf(value, status), JSON.stringify(value));
}

/** A whole row a generated row writer wrote (no field scrubbed), with its ETag (CONTRACT §10): the same header the runtime path sends. */
export function sendRowText(req: Request, res: Response, status: number, body: string): void {
  if (!answeredNotModified(req, res, etagOfRowText(body))) sendJsonText(req, res, status, body);
}

/**
 * A row answered as an object (after its scrubs or an after-hook), given its JSON text before them: what sendJson
 * sends for a row marked withRowEtag, without marking it (a WeakMap entry per request). The ETag names the body sent.
 */
export function sendRow(req: Request, res: Response, status: number, row: object, storedText: string): void {
  const body = JSON.stringify(row);
  if (!answeredNotModified(req, res, answerEtag(storedText, body))) sendJsonText(req, res, status, body);
}

/**
 * Sets a row's ETag, and answers 304 without a body when the request is a GET (or HEAD) whose If-None-Match names it
 * (RFC 9110 §13.1.2, weak comparison). Evaluated here rather than by Express's freshness check, which gives up on
 * `Cache-Control: no-cache`, the header fetch() adds to every conditional request.
 */
export function answeredNotModified(req: Request, res: Response, etag: string): boolean {
  res.setHeader('ETag', etag);
  const ifNoneMatch = req.headers['if-none-match'];
  if (ifNoneMatch === undefined || (req.method !== 'GET' && req.method !== 'HEAD')) return false;
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  const isMatch = ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || opaque(tag.trim()) === etag);
  if (!isMatch) return false;
  res.statusCode = 304;
  res.end();
  return true;
}
