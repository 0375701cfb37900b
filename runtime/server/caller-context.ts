// The caller context of an HTTP request, composed once at construction from what the server has: the request id
// (`ctx.requestId`), the claims `auth` verified (`ctx.user`, or what `claims` maps them to), and the `context`
// factory, which receives that base and has the last word. Each combination is its own small function, so a
// server without `auth` or `context` pays for neither (and one with neither and no request ids builds `{}`).
import type { Request } from 'express';
import type { Context } from '../model/context';
import type { AnyContext } from '../model/options';
import type { ContextFactory } from '../handlers/generic-handler';
import type { JwtClaims } from './jwt-options';

/**
 * The `context` server option: the request, and the base context Tessera built (`requestId`, and `user` with `auth`);
 * it answers the caller context (`TContext`: the registered `Context`, or `createServer<Ctx>`'s).
 */
export type ContextOption<TContext = Context> = (req: Request, base: AnyContext) => TContext | Promise<TContext>;

export interface CallerContextParts {
  /** Request ids are on: `ctx.requestId` is `req.id`. */
  readonly hasRequestId: boolean;
  /** With `auth`: the claims to context mapping (the claims are on `req.auth` once verified). */
  readonly toContext: ((claims: JwtClaims) => AnyContext) | null;
  readonly context: ContextOption<AnyContext> | null;
}

/** The base context of a request: the mapped claims when a token was verified, and the request id. */
function baseContext({ hasRequestId, toContext }: CallerContextParts): (req: Request) => AnyContext {
  if (toContext === null) return hasRequestId ? (req) => ({ requestId: (req as { id?: string }).id }) : () => ({});
  return (req) => {
    const claims = (req as { auth?: JwtClaims }).auth;
    const base: AnyContext = claims === undefined ? {} : { ...toContext(claims) }; // a copy: the mapping may answer a shared object
    if (hasRequestId) base.requestId = (req as { id?: string }).id;
    return base;
  };
}

/**
 * The factory every handler mode calls per request (deps.context), or null when the context is always `{}`.
 * With `context`, its answer is the context; a request id it left out is added to a shallow copy (the object it
 * answered is never changed: it may be shared between requests).
 */
export function callerContext(parts: CallerContextParts): ContextFactory | null {
  const { hasRequestId, toContext, context } = parts;
  if (context === null) return hasRequestId || toContext !== null ? baseContext(parts) : null;
  // Without ids and auth, the factory is the user's own, as before either existed.
  if (!hasRequestId && toContext === null) return (req) => context(req, {});
  const base = baseContext(parts);
  const finish = (req: Request, ctx: AnyContext | undefined | null): AnyContext => {
    const result = ctx ?? {};
    if (!hasRequestId || result.requestId !== undefined) return result;
    return { ...result, requestId: (req as { id?: string }).id };
  };
  return (req) => {
    const answered = context(req, base(req));
    return answered instanceof Promise ? answered.then((ctx) => finish(req, ctx)) : finish(req, answered);
  };
}
