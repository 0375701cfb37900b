// Request ids (on by default): the caller's `X-Request-Id` when it is a plausible id, else a new UUID, set on
// the request for the context (`ctx.requestId`) and the logs, and echoed in the answer, so that an error answer
// can be matched to its log line.
import { randomUUID } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { SetupError } from '../errors';

/** The object form of the `requestId` server option. */
export interface RequestIdOptions {
  /** The request and response header. Default `X-Request-Id`. */
  header?: string;
  /** Whether a valid id the caller sends is kept (behind a proxy that sets it, or a client that traces). Default true. */
  accept?: boolean;
}

export const DEFAULT_REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * What an accepted id may hold: letters, digits and `-_.:=+/`, 1 to 200 characters. That takes UUIDs, ULIDs,
 * hex trace ids and load balancer ids (`Root=1-5f84c7a1-…`), and keeps spaces, quotes and control characters,
 * which could forge log lines, out of every log. Anything else is replaced by a new id, never refused.
 */
export const REQUEST_ID_PATTERN = /^[A-Za-z0-9\-_.:=+/]{1,200}$/;

/** An HTTP field name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** The resolved option: the header, lowercased for reading as Node stores it, and whether callers' ids are kept. */
export interface RequestIdPolicy {
  readonly header: string;
  readonly incoming: string | null;
}

/** The `requestId` option checked: null when it is `false` (no ids, no header, no `ctx.requestId`). */
export function resolveRequestId(option: boolean | RequestIdOptions | undefined): RequestIdPolicy | null {
  if (option === false) return null;
  if (option === undefined || option === true) return { header: DEFAULT_REQUEST_ID_HEADER, incoming: DEFAULT_REQUEST_ID_HEADER.toLowerCase() };
  if (typeof option !== 'object' || option === null) throw new SetupError('requestId must be true, false or { header?, accept? }');
  for (const key of Object.keys(option)) if (key !== 'header' && key !== 'accept') throw new SetupError(`requestId.${key} is not a requestId option (header, accept)`);
  const header = option.header ?? DEFAULT_REQUEST_ID_HEADER;
  if (typeof header !== 'string' || !HEADER_NAME.test(header)) throw new SetupError(`requestId.header must be an HTTP header name, got ${JSON.stringify(header)}`);
  if (option.accept !== undefined && typeof option.accept !== 'boolean') throw new SetupError('requestId.accept must be true or false');
  return { header, incoming: option.accept === false ? null : header.toLowerCase() };
}

/** The request's id as the request id layer set it, or undefined when ids are off. */
export function requestIdOf(req: Request): string | undefined {
  return (req as { id?: string }).id;
}

/** The first layer of every request: the id on `req.id` and in the answer's header. */
export function requestIdLayer(policy: RequestIdPolicy): RequestHandler {
  const { header, incoming } = policy;
  return function requestId(req, res, next) {
    const given = incoming === null ? undefined : req.headers[incoming];
    const id = typeof given === 'string' && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
    (req as { id?: string }).id = id;
    res.setHeader(header, id);
    next();
  };
}
