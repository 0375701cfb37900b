// The options of createServer (spec §4.3 plus CONTRACT §5's `context` and `bodyLimit`).
import type { Secret } from '../secrets/secret';
import type { RequestHandler } from 'express';
import type { Compilation } from '../handlers/load-compiled';
import type { Service } from '../service';
import type { ReferenceDocument } from '../docs/reference-documents';
import type { SecretSource } from '../secrets/secret-source';
import type { SecurityOptions } from '../openapi/security';
import type { ContactOption, LicenseOption } from '../openapi/document-info';
import type { DashboardOptions } from '../dashboard/dashboard-options';
import type { Context } from '../model/context';
import type { ContextOption } from './caller-context';
import type { CorsOptions } from './cors';
import type { JwtAuth } from './jwt-options';
import type { RateLimitOptions } from './rate-limit-options';
import type { RequestIdOptions } from './request-id';

export interface EndpointDefinition {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  path: string;
  handler: RequestHandler;
}

export interface RequestLoggingOptions {
  enabled?: boolean;
  logger?: (message: string) => void;
}

/** The `secrets` server option (spec §4.3). */
export interface SecretsOptions {
  /** Where the construction check reads secrets. Default `process.env` (overrides still win). */
  source?: SecretSource;
  /** `false` skips the check at construction. Default true. */
  validate?: boolean;
}

/** The object form of the `reference` option. */
export interface ReferenceOptions {
  path?: string;
  documents?: ReferenceDocument[];
}

/** The server options; `TContext` is what the `context` factory answers (the registered `Context` by default). */
export interface ServerOptions<TContext = Context> {
  /** Accepted but ignored: the port goes to `app.listen(port)`. */
  port?: number;
  /** Base path of action routes. Default `/api`. */
  prefix?: string;
  /** Services to mount. Default: every registered service. */
  services?: Service<any, any>[];
  /** OpenAPI `info.title` and the docs pages' title. Default 'Tessera API Mesh'. */
  title?: string;
  /** OpenAPI `info.version`. Default '1.0.0'. */
  version?: string;
  /** OpenAPI `info.description`. */
  description?: string;
  /** OpenAPI `info.license`: `{ name, identifier? }` (an SPDX id) or `{ name, url? }`. Checked at construction. */
  license?: LicenseOption;
  /** OpenAPI `info.contact`: `{ name?, url?, email? }`, who answers for the API. Checked at construction. */
  contact?: ContactOption;
  docs?: boolean;
  /** Where the raw OpenAPI 3.1 document is served, outside the prefix. Default '/openapi.json'. */
  openApiPath?: string;
  docsPath?: string;
  swaggerPath?: string;
  /** Exactly one line per request, `GET /api/notes/42 → 200 (1.3ms)`. Default true (console.log). */
  requestLogging?: boolean | RequestLoggingOptions;
  /**
   * Where server-side failures are logged, one line each without values (`INTERNAL_ERROR POST /api/notes:
   * DrizzleQueryError (SQLITE_ERROR)`, `SERVICE_UNAVAILABLE …`). Default console.error (stderr); `false` logs nothing.
   */
  errorLogger?: ((message: string) => void) | false;
  /** Milliseconds a client has to send a request's headers (then 408, connection closed). Default 10 000. Servers app.listen starts. */
  headersTimeout?: number;
  /** Milliseconds a client has to send a whole request, body included (then 408). Default 30 000; 0 turns it off. */
  requestTimeout?: number;
  /** Milliseconds an idle kept-alive connection stays open. Default 5 000; behind a load balancer, longer than its idle timeout. */
  keepAliveTimeout?: number;
  /** Milliseconds app.close() lets in-flight requests finish before cutting their connections. Default 10 000. */
  shutdownGracePeriod?: number;
  /**
   * spec §4.3: `true` mounts the reference page at /reference; an object mounts it only when it has a
   * `path`. `documents` adds OpenAPI documents (by URL or inline) to its APIs tab. Gone with `docs: false`.
   */
  reference?: boolean | ReferenceOptions;
  /**
   * Default true: the code generator writes a specialized handler per route at construction. `false`
   * serves every route with the generic handler. Both answer byte for byte the same (CONTRACT §5).
   */
  compiler?: boolean;
  /**
   * spec §8: prepared statements cached per query shape, up to 128 per database (default true). `false` builds
   * every query per call and prepares nothing, for the databases of the served services: use it for PostgreSQL
   * behind a pooler in transaction mode (PgBouncer, RDS Proxy), where consecutive statements of one client may run
   * on different server connections, and a statement prepared on one is missing on the next.
   */
  statementCache?: boolean;
  /** The object `tessera build` emits (`require('./dist/compilation.js')`): its handlers, nothing generated at start. */
  compilation?: Compilation;
  /** Boot check of every declared secret (spec §4.3): resolveSecrets(source) runs at construction unless `validate: false`. */
  secrets?: SecretsOptions;
  /** Raw Express routes outside the JSON action mesh and its error model. */
  endpoints?: EndpointDefinition[];
  /**
   * CONTRACT §8: the read-only monitoring dashboard that `tessera start` serves on its own port (default
   * 127.0.0.1:4001), with per-minute history for `historyDays` (default 7). Turns on telemetry. See docs/dashboard.md.
   */
  dashboard?: DashboardOptions;
  /**
   * Folder of .md/.mdx pages for the reference page's Docs tab (needs the optional packages marked and
   * @mdx-js/mdx). Relative paths start at the entry's folder under the CLI, else at process.cwd().
   */
  documentation?: string | { dir: string; components?: string };
  /**
   * How callers present credentials, for the OpenAPI document and the docs pages: OpenAPI security `schemes`
   * by name, and which operations `require` them (default: every route of a resource whose `access` is not
   * `'public'`). Published as `components.securitySchemes` and per-operation `security`, so /docs and /swagger
   * offer an Authorize button and send the credential. It checks nothing: `context` and `authorize` do.
   * Checked at construction: a SetupError names the bad key.
   *
   * @example
   * security: { schemes: { bearer: { type: 'http', scheme: 'bearer' } }, require: { 'blog.stats': true } }
   */
  security?: SecurityOptions;
  /**
   * Builds the caller context per HTTP request; throw `TesseraError('UNAUTHORIZED')` to answer 401. `base` is the
   * context Tessera built: `requestId`, and with `auth` the verified claims (`user`, or what `claims` maps them to).
   * What it answers is the context (a `requestId` left out is added to a copy); `{ ...base, … }` keeps both.
   */
  context?: ContextOption<TContext>;
  /**
   * Bearer-token authentication: `jwt({ secret | jwksUrl, issuer?, audience?, algorithms?, claims? })` verifies
   * `Authorization: Bearer <JWT>` on every action route and puts the claims in `ctx.user`; a bad, expired or not yet
   * valid token answers 401 with `WWW-Authenticate: Bearer error="invalid_token"`. Off by default. See docs/access.md.
   */
  auth?: JwtAuth;
  /** Cross-origin calls from browsers, with the `cors` package: `{ origin, credentials?, methods?, … }`. Off by default. */
  cors?: CorsOptions;
  /**
   * Points per caller and window, each operation costing its weight (count and includeTotal more), in memory or in
   * Redis for workers and replicas; 429 RATE_LIMITED with `Retry-After` and `RateLimit` fields. Off by default.
   */
  rateLimit?: RateLimitOptions;
  /**
   * `X-Request-Id`: a valid one from the caller is kept, else a UUID is made; echoed in the answer, in the request
   * and error log lines, and in `ctx.requestId`. Default on; `false` turns it off, `{ header, accept }` adjusts it.
   */
  requestId?: boolean | RequestIdOptions;
  /** Largest accepted JSON body: bytes, or a string such as '1mb'. Default 1 MiB. */
  bodyLimit?: number | string;
  /**
   * Behind a reverse proxy or load balancer: which proxies to believe about the caller's address (`X-Forwarded-For`),
   * as Express's `trust proxy` setting takes it: `true`, a number of hops, or addresses and subnets (`'loopback'`,
   * `'10.0.0.0/8'`, a list). The caller's address then counts for `rateLimit` by `'ip'`. Default: none trusted.
   */
  trustProxy?: boolean | number | string | readonly string[];
  /**
   * CONTRACT §10: the key of the rows' ETags (at least 32 characters; a `secret('…')` reference allowed). Replicas
   * behind one address need the same one, so that an ETag read from one is good for If-Match on another.
   * Default: a random key per process.
   */
  cursorSecret?: string | Secret;
}

export const DEFAULT_PREFIX = '/api';
export const DEFAULT_BODY_LIMIT = 1024 * 1024;
