// The headers the server's edge options add to answers, as the document declares them: `RateLimit` and
// `RateLimit-Policy` on the answers of operations a rate limit counts (`rateLimit`), and
// `Access-Control-Allow-Origin` on every answer to an allowed origin (`cors`). None of them is sent on every
// answer (a preflight or a refused origin, a body refused before counting), so none is `required`.
import type { OpenAPIV3_1 } from 'openapi-types';

type Headers = Record<string, OpenAPIV3_1.HeaderObject>;

/** draft-ietf-httpapi-ratelimit-headers: the caller's remaining points, and the budget. */
export const RATE_LIMIT_HEADERS: Readonly<Headers> = {
  RateLimit: {
    description: 'The remaining points `r` and the seconds `t` until they renew (draft-ietf-httpapi-ratelimit-headers); sent once the rate limit has counted the call.',
    schema: { type: 'string', maxLength: 1024 },
    example: '"default";r=97;t=42',
  },
  'RateLimit-Policy': {
    description: 'The budget: `q` points every `w` seconds per caller.',
    schema: { type: 'string', maxLength: 1024 },
    example: '"default";q=100;w=60',
  },
};

const CORS_HEADERS: Readonly<Headers> = {
  'Access-Control-Allow-Origin': {
    description: 'The calling origin (or `*`), sent when the request comes from an origin the `cors` option allows.',
    schema: { type: 'string', maxLength: 2048 },
    example: 'https://app.example.com',
  },
};

/** Which edge headers a response declares. */
export interface EdgeHeaders {
  /** The operation (or, for a shared error response, some operation) is counted by the rate limit. */
  readonly rateLimit: boolean;
  /** The server answers allowed origins with CORS headers. */
  readonly cors: boolean;
}

/** `response` with the edge headers added after its own (a new object; the input is shared, so not changed). */
export function withEdgeHeaders(response: OpenAPIV3_1.ResponseObject, edge: EdgeHeaders): OpenAPIV3_1.ResponseObject {
  if (!edge.rateLimit && !edge.cors) return response;
  const headers: Headers = { ...(response.headers as Headers | undefined) };
  // A response's own declaration of a header (429's RateLimit example) stays.
  for (const added of [edge.rateLimit ? RATE_LIMIT_HEADERS : {}, edge.cors ? CORS_HEADERS : {}]) {
    for (const [name, header] of Object.entries(added)) headers[name] ??= header;
  }
  const { content, ...rest } = response;
  // `headers` before `content`, as the responses without edge headers have it.
  return content === undefined ? { ...rest, headers } : { ...rest, headers, content };
}
