// The `cors` server option, with the `cors` package: which browser origins may call the API, with which methods,
// headers and credentials. Checked at construction (a SetupError names the mistake); the middleware it returns
// answers every preflight (OPTIONS) and adds the CORS headers to every answer of an allowed origin.
import corsMiddleware from 'cors';
import type { RequestHandler } from 'express';
import { SetupError } from '../errors';

/** An allowed origin: an exact origin (`https://app.example.com`), or a regular expression an origin must match. */
export type CorsOrigin = string | RegExp;

/** The `cors` server option. */
export interface CorsOptions {
  /**
   * Who may call: `'*'` (any origin, without credentials), an origin, a pattern, a list of them, or a function of
   * the request's `Origin` answering whether it may. Required: there is no default origin.
   */
  origin: '*' | CorsOrigin | CorsOrigin[] | ((origin: string) => boolean);
  /** Whether browsers may send cookies and HTTP authentication (`Access-Control-Allow-Credentials`). Default false. */
  credentials?: boolean;
  /** Methods allowed in preflights. Default: GET, HEAD, POST, PUT, PATCH, DELETE. */
  methods?: string[];
  /** Request headers allowed in preflights. Default: those the preflight asks for (`Access-Control-Request-Headers`). */
  allowedHeaders?: string[];
  /** Response headers scripts may read. Default: the request id header, RateLimit, RateLimit-Policy, Retry-After, WWW-Authenticate. */
  exposedHeaders?: string[];
  /** Seconds browsers may cache a preflight. Default 600. */
  maxAge?: number;
}

const OPTION_KEYS = ['origin', 'credentials', 'methods', 'allowedHeaders', 'exposedHeaders', 'maxAge'];
export const DEFAULT_CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];
export const DEFAULT_CORS_MAX_AGE = 600;
/** The headers Tessera's answers carry that a browser app may need: ids, rate limits, challenges. */
const EXPOSED_BY_DEFAULT = ['RateLimit', 'RateLimit-Policy', 'Retry-After', 'WWW-Authenticate'];
/** scheme://host[:port], nothing after: what a browser sends in `Origin`. */
const ORIGIN = /^[a-z][a-z0-9+.-]*:\/\/[^/?#\s]+$/i;
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function checkOrigin(origin: unknown): void {
  if (origin instanceof RegExp) return;
  if (typeof origin !== 'string') throw new SetupError('cors.origin must be "*", an origin, a RegExp, a list of them, or a function');
  if (!ORIGIN.test(origin)) throw new SetupError(`cors.origin ${JSON.stringify(origin)} is not an origin (scheme://host[:port], without a path or a trailing slash)`);
}

function checkTokens(name: string, value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string' && TOKEN.test(item))) throw new SetupError(`cors.${name} must be a list of HTTP names`);
  return value;
}

/** The option as the cors package takes it: a single origin becomes a list, so that only it is ever answered. */
function corsOrigin(origin: CorsOptions['origin']): corsMiddleware.CorsOptions['origin'] {
  if (origin === '*') return '*';
  // The function's verdict as a list (the origin, or none): a refused origin's answer then says `Vary: Origin` as a
  // list's does, where `false` would skip the cors layer and let a cache hand that answer to an allowed origin.
  if (typeof origin === 'function') return (requestOrigin, callback) => callback(null, requestOrigin !== undefined && origin(requestOrigin) === true ? [requestOrigin] : []);
  return Array.isArray(origin) ? origin : [origin];
}

/** The checked option as middleware, or null without it. `requestIdHeader` is exposed by default. */
export function resolveCors(option: CorsOptions | undefined, requestIdHeader: string | null): RequestHandler | null {
  if (option === undefined) return null;
  if (typeof option !== 'object' || option === null) throw new SetupError('cors must be { origin, credentials?, methods?, allowedHeaders?, exposedHeaders?, maxAge? }');
  for (const key of Object.keys(option)) if (!OPTION_KEYS.includes(key)) throw new SetupError(`cors.${key} is not a cors option (${OPTION_KEYS.join(', ')})`);
  const { origin } = option;
  if (origin === undefined) throw new SetupError('cors.origin is required: the origins that may call ("*" for any)');
  if (Array.isArray(origin)) {
    if (origin.length === 0) throw new SetupError('cors.origin must name at least one origin');
    origin.forEach(checkOrigin);
  } else if (origin !== '*' && typeof origin !== 'function') checkOrigin(origin);
  if (option.credentials !== undefined && typeof option.credentials !== 'boolean') throw new SetupError('cors.credentials must be true or false');
  // The Fetch standard: a credentialed request is refused when the answer allows `*`.
  if (origin === '*' && option.credentials === true) throw new SetupError('cors: credentials cannot go with origin "*" (browsers refuse it): name the origins');
  const maxAge = option.maxAge ?? DEFAULT_CORS_MAX_AGE;
  if (!Number.isInteger(maxAge) || maxAge < 0) throw new SetupError('cors.maxAge must be a whole number of seconds');
  const exposed = option.exposedHeaders === undefined ? [...(requestIdHeader === null ? [] : [requestIdHeader]), ...EXPOSED_BY_DEFAULT] : checkTokens('exposedHeaders', option.exposedHeaders);
  return corsMiddleware({
    origin: corsOrigin(origin),
    credentials: option.credentials === true,
    methods: option.methods === undefined ? DEFAULT_CORS_METHODS : checkTokens('methods', option.methods),
    ...(option.allowedHeaders === undefined ? {} : { allowedHeaders: checkTokens('allowedHeaders', option.allowedHeaders) }),
    exposedHeaders: exposed,
    maxAge,
  }) as RequestHandler;
}
