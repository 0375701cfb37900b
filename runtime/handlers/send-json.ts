// The JSON answer of a compiled handler, written straight to Node's response. Express's res.json gives
// the same bytes, but parses its own Content-Type back, checks freshness and looks up app settings on every
// call; with ETags off (createServer's choice) only a conditional request can change what it sends.
import type { Request, Response } from 'express';
import { statusOf } from '../crud/response-status';

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
 * answer whose status depends on what the action did (upsert's 201) carries it (crud/response-status.ts).
 */
export function sendJson(req: Request, res: Response, status: number, value: unknown): void {
  sendJsonText(req, res, statusOf(value, status), JSON.stringify(value));
}
