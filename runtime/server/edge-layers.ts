// The edge of a public API, resolved once at construction from the server options: request ids (on by default),
// CORS, bearer-token auth and rate limits (off by default). An option that is off adds no layer and no work to a
// request; jose, cors and rate-limiter-flexible load only for the servers that use them.
import type { RequestHandler } from 'express';
import type { ContextFactory } from '../handlers/generic-handler';
import { SetupError } from '../errors';
import type { MountedRoute } from '../model/action-routes';
import { callerContext } from './caller-context';
import { isJwtAuth } from './jwt-options';
import { checkRateLimitOptions, resolveRouteCosts } from './rate-limit-options';
import { requestIdLayer, resolveRequestId } from './request-id';
import type { ServerOptions } from './server-options';

/** What one action route gets from the edge, around its body parser. */
export interface RouteEdge {
  /** Before the body is read: the bearer token check. */
  readonly beforeBody: readonly RequestHandler[];
  /** After it: the rate limit (a list's `includeTotal` costs more). */
  readonly afterBody: readonly RequestHandler[];
}

export interface EdgeLayers {
  /** The first layer of every request (the request id), or none. */
  readonly first: readonly RequestHandler[];
  /** After the request log, for every request: CORS, or none. */
  readonly shared: readonly RequestHandler[];
  /** Per route, in the order of `routes`. */
  readonly routes: readonly RouteEdge[];
  /** The caller context factory every handler mode calls (deps.context), or null for `{}`. */
  readonly context: ContextFactory | null;
  /** Releases what the edge holds (the Redis connection of a rate limit). */
  close(): void;
}

const NO_LAYERS: readonly RequestHandler[] = Object.freeze([]);

/** The edge of `options` for `routes`; a SetupError names a bad option. Server-side failures go to `errorLog`. */
export function resolveEdge(options: ServerOptions, routes: readonly MountedRoute[], errorLog: ((message: string) => void) | null): EdgeLayers {
  const requestIds = resolveRequestId(options.requestId);
  if (options.auth !== undefined && !isJwtAuth(options.auth)) throw new SetupError('auth must be what jwt({ … }) returns');
  if (options.context !== undefined && typeof options.context !== 'function') throw new SetupError('context must be a function of the request');

  const cors = options.cors === undefined ? null : (require('./cors') as typeof import('./cors')).resolveCors(options.cors, requestIds?.header ?? null);
  const authenticator = options.auth === undefined ? null : (require('./jwt-auth') as typeof import('./jwt-auth')).createAuthenticator(options.auth, options.secrets?.source);

  let costs = routes.map(() => null) as ReturnType<typeof resolveRouteCosts>;
  let rateLimit: import('./rate-limit').RateLimit | null = null;
  if (options.rateLimit !== undefined) {
    checkRateLimitOptions(options.rateLimit, authenticator !== null);
    costs = resolveRouteCosts(options.rateLimit, routes);
    const { RateLimit } = require('./rate-limit') as typeof import('./rate-limit');
    rateLimit = new RateLimit(options.rateLimit, authenticator !== null, errorLog);
  }

  const beforeBody = authenticator === null ? NO_LAYERS : [authenticator.layer];
  return {
    first: requestIds === null ? NO_LAYERS : [requestIdLayer(requestIds)],
    shared: cors === null ? NO_LAYERS : [cors],
    routes: costs.map((cost) => ({ beforeBody, afterBody: cost === null || rateLimit === null ? NO_LAYERS : [rateLimit.layer(cost)] })),
    context: callerContext({ hasRequestId: requestIds !== null, toContext: authenticator?.toContext ?? null, context: options.context ?? null }),
    close: () => rateLimit?.close(),
  };
}
