// The error body of CONTRACT §4 as one OpenAPI component, generated from ERROR_CODES, one shared response
// per error status, and which statuses each route can answer.
import type { CrudActionName } from '../actions';
import type { OpenAPIV3_1 } from 'openapi-types';
import { ERROR_CODES, MAX_ERROR_DETAILS, MAX_ERROR_TEXT_LENGTH, RETRY_AFTER_SECONDS, TesseraError, type ErrorCode } from '../errors';
import type { JsonSchema } from '../json-schema';
import type { DocumentedRoute } from './documented-routes';
import { RATE_LIMIT_HEADERS, withEdgeHeaders, type EdgeHeaders } from './edge-headers';
import { canRefuseThroughRelations } from './relation-access';

/** Not `Error`: client generators name a type after the component, and `interface Error` shadows the global one. */
export const ERROR_SCHEMA = 'ErrorBody';

/** CONTRACT §4 "when", per code. A Record, so a code added to ERROR_CODES does not compile until it is described here. */
const WHEN: Record<ErrorCode, string> = {
  BAD_REQUEST: 'malformed JSON body, or a path that is not valid percent-encoding',
  VALIDATION_ERROR: 'the input violates the schema, a limit or the field policy',
  UNAUTHORIZED: 'the bearer token is missing where required, bad, expired or not yet valid (`auth`), or the context factory rejected the credentials; sent with `WWW-Authenticate: Bearer`',
  FORBIDDEN: 'authorize said no, the access rules lack authorize, or a written row would leave the scope',
  NOT_FOUND: 'no such row in scope',
  CONFLICT: 'a unique or foreign-key violation, or an upsert of a key that exists outside your scope',
  PRECONDITION_FAILED: 'the `If-Match` ETag (in-process `ifMatch`) is not the row\'s current one: it changed since it was read; nothing was written',
  PAYLOAD_TOO_LARGE: 'the body is larger than the server accepts (`bodyLimit`)',
  UNSUPPORTED_MEDIA_TYPE: 'the body is not `application/json`',
  RATE_LIMITED: 'the caller spent its rate limit (`rateLimit`); retry after `Retry-After` seconds',
  INTERNAL_ERROR: 'anything else; the message never carries SQL, stack traces or secret values',
  SERVICE_UNAVAILABLE: 'the database cannot be reached (connection refused or lost, pool timeout, server shutting down); retry after `Retry-After` seconds',
};

/** Headers an error status sends beside its body. */
const STATUS_HEADERS: Record<number, Record<string, OpenAPIV3_1.HeaderObject>> = {
  401: {
    'WWW-Authenticate': {
      description: 'The challenge (RFC 6750): `Bearer`, with `error="invalid_token"` for a bad, expired or not yet valid token.',
      schema: { type: 'string', maxLength: 1024 },
      example: 'Bearer error="invalid_token", error_description="the bearer token has expired"',
    },
  },
  429: {
    // The maximum is the rate limit's window (errorResponses).
    'Retry-After': { description: 'Seconds until the caller\'s budget is renewed.', schema: { type: 'integer', format: 'int32', minimum: 1 }, example: 30 },
    RateLimit: { ...RATE_LIMIT_HEADERS.RateLimit, example: '"default";r=0;t=30' },
    'RateLimit-Policy': RATE_LIMIT_HEADERS['RateLimit-Policy'],
  },
  503: {
    'Retry-After': {
      description: 'Seconds to wait before retrying.',
      schema: { type: 'integer', format: 'int32', minimum: 0, maximum: 3600 },
      example: RETRY_AFTER_SECONDS,
    },
  },
};

const CODES = Object.keys(ERROR_CODES) as ErrorCode[];

const TEXT_DESCRIPTION = `What went wrong, for people. A text that would be longer (it may quote the input) is cut to ${MAX_ERROR_TEXT_LENGTH} characters, ending in \`…\`.`;

export function errorSchema(): JsonSchema {
  return {
    type: 'object',
    description: 'Every error, from every route: `{ error: { code, message, details? } }`.',
    required: ['error'],
    additionalProperties: false,
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        additionalProperties: false,
        properties: {
          code: { type: 'string', enum: CODES, description: CODES.map((code) => `${code} (${ERROR_CODES[code]}): ${WHEN[code]}.`).join(' ') },
          message: { type: 'string', maxLength: MAX_ERROR_TEXT_LENGTH, description: TEXT_DESCRIPTION },
          details: {
            type: 'array',
            description: `For VALIDATION_ERROR: what is wrong where, sorted by path (at most ${MAX_ERROR_DETAILS}).`,
            maxItems: MAX_ERROR_DETAILS,
            items: {
              type: 'object',
              required: ['path', 'message'],
              additionalProperties: false,
              properties: {
                path: { type: 'string', maxLength: MAX_ERROR_TEXT_LENGTH, description: 'A JSON Pointer into the input (the empty string for the input itself).' },
                message: { type: 'string', maxLength: MAX_ERROR_TEXT_LENGTH },
              },
            },
          },
        },
      },
    },
  };
}

/** `NOT_FOUND` → `NotFound`: the component name of a status's response, after its first code. */
function pascal(code: string): string {
  return code.toLowerCase().replace(/(^|_)([a-z])/g, (_match, _sep, letter: string) => letter.toUpperCase());
}

/** The error statuses in ascending order, each with its codes in table order. */
function statusCodes(): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of CODES) byStatus.set(ERROR_CODES[code], [...(byStatus.get(ERROR_CODES[code]) ?? []), code]);
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

export function errorResponseName(status: number): string {
  return pascal(statusCodes().get(status)![0]);
}

function exampleBody(code: ErrorCode): unknown {
  if (code !== 'VALIDATION_ERROR') return new TesseraError(code).toJSON();
  const message = 'unknown input key `colour`';
  return new TesseraError(code, message, [{ path: '/colour', message }]).toJSON();
}

/** The edge headers of the shared error responses. */
export interface ErrorEdgeHeaders extends EdgeHeaders {
  /** The rate limit's window in seconds, the longest Retry-After of a 429 (when `rateLimit` is true). */
  readonly rateLimitWindow?: number;
}

/** 429's headers, Retry-After bounded by the window. */
function rateLimitedHeaders(window: number | undefined): Record<string, OpenAPIV3_1.HeaderObject> {
  const headers = STATUS_HEADERS[429];
  if (window === undefined) return headers;
  const retryAfter = headers['Retry-After'];
  return { ...headers, 'Retry-After': { ...retryAfter, schema: { ...(retryAfter.schema as object), maximum: window }, example: Math.min(30, window) } };
}

/**
 * components/responses: one per error status, every body an `ErrorBody`, with an example per code. `edge`: the
 * edge headers they declare (4XX ones carry the rate limit's when some operation is counted).
 */
export function errorResponses(edge: ErrorEdgeHeaders = { rateLimit: false, cors: false }): Record<string, OpenAPIV3_1.ResponseObject> {
  const responses: Record<string, OpenAPIV3_1.ResponseObject> = {};
  for (const [status, codes] of statusCodes()) {
    const examples: Record<string, OpenAPIV3_1.ExampleObject> = {};
    for (const code of codes) examples[code] = { summary: WHEN[code], value: exampleBody(code) };
    const response: OpenAPIV3_1.ResponseObject = { description: codes.map((code) => `${code}: ${WHEN[code]}.`).join(' ') };
    if (STATUS_HEADERS[status] !== undefined) response.headers = status === 429 ? rateLimitedHeaders(edge.rateLimitWindow) : STATUS_HEADERS[status];
    response.content = { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_SCHEMA}` }, examples } };
    responses[errorResponseName(status)] = withEdgeHeaders(response, { rateLimit: edge.rateLimit && status >= 400 && status < 500, cors: edge.cors });
  }
  return responses;
}

/** The writes that may meet a unique or foreign-key violation (409). */
const WRITES: ReadonlySet<CrudActionName> = new Set(['create', 'update', 'delete', 'createMany', 'updateMany', 'deleteMany', 'upsert']);
/** The writes that take `If-Match` (CONTRACT §10). */
export const CONDITIONAL_WRITES: ReadonlySet<CrudActionName> = new Set(['update', 'delete', 'upsert']);
/** The writes whose written rows must stay in scope (403 otherwise). */
const SCOPED_WRITES: ReadonlySet<CrudActionName> = new Set(['create', 'update', 'createMany', 'updateMany', 'upsert']);

/**
 * The error statuses a route can answer from Tessera itself. 401 needs a context factory or `auth` (CONTRACT §3);
 * 403 access rules, a route scope on a write, or a relation the input can reach with access rules (CONTRACT §9); 404 an id; 409 a write; 413 and 415 a JSON body; 429 a rate
 * limit; 500 and 503 any route, since every one may reach the database. A custom action's handler may throw any
 * TesseraError, which its `default` response covers.
 */
export function errorStatuses(route: DocumentedRoute, hasContext: boolean, isRateLimited = false): number[] {
  const statuses = [400];
  if (hasContext) statuses.push(401);
  if (route.kind === 'crud') {
    // A route scope alone refuses a written row that would land outside it (CONTRACT §3).
    const writesInScope = route.source.routeScope !== null && SCOPED_WRITES.has(route.action);
    // An include or relation filter reads the related resource under its own access rules (CONTRACT §9).
    const { runtime } = route.source;
    if (!runtime.access.isPublic || writesInScope || canRefuseThroughRelations(runtime, route.action)) statuses.push(403);
    if (route.route.input !== 'body' && route.action !== 'upsert') statuses.push(404);
    if (WRITES.has(route.action)) statuses.push(409);
    if (CONDITIONAL_WRITES.has(route.action)) statuses.push(412);
  }
  if (route.route.method === 'POST' || route.route.method === 'PATCH' || route.route.method === 'PUT') statuses.push(413, 415);
  if (isRateLimited) statuses.push(429);
  statuses.push(500, 503);
  return statuses;
}
