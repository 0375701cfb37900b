// The access steps of a call (CONTRACT §3): authorize, then the scope as SQL. Every action runs them, and so does every
// relation a call includes or filters through, against the related resource (CONTRACT §9).
import { is, SQL } from 'drizzle-orm';
import type { CrudActionName } from '../actions';
import { TesseraError } from '../errors';
import type { CrudRuntime } from '../model/crud-runtime';
import type { AnyContext, ScopeFunction, Where } from '../model/options';
import type { Scope } from '../sql/resource-plan';
import { andRowConditions, compileWhere } from '../sql/where';

export async function authorizeCall(rt: CrudRuntime, action: CrudActionName, input: unknown, ctx: AnyContext): Promise<void> {
  if (rt.access.isPublic) return;
  // spec §5.1 rule 4: an access object without authorize rejects every call.
  if (rt.access.authorize === null) throw new TesseraError('FORBIDDEN', `${rt.resourceName}.${action} is not authorized for anyone`);
  const allowed = await rt.access.authorize({ ctx, action, input, resource: rt.resourceName });
  if (allowed !== true) throw new TesseraError('FORBIDDEN', `${rt.resourceName}.${action} is not allowed`);
}

/** A scope function's answer as SQL over every column (hidden ones included), or undefined for none. */
async function scopeCondition(rt: CrudRuntime, scope: ScopeFunction, action: CrudActionName, ctx: AnyContext): Promise<Scope> {
  const condition = await scope({ ctx, action });
  if (condition === undefined || condition === null) return undefined;
  if (is(condition, SQL)) return condition;
  return compileWhere(condition as Where, rt.scopeColumns, rt.dialect);
}

/**
 * The call's scope: the access scope, ANDed with the route's own scope for calls through a route that has one
 * (CONTRACT §2: a route narrows, never widens). Undefined when neither gives a condition (spec §8 rule 2).
 */
export async function resolveScope(rt: CrudRuntime, action: CrudActionName, ctx: AnyContext, routeScope: ScopeFunction | null = null): Promise<Scope> {
  const scope = rt.access.scope === null ? undefined : await scopeCondition(rt, rt.access.scope, action, ctx);
  if (routeScope === null) return scope;
  const narrowed = await scopeCondition(rt, routeScope, action, ctx);
  if (narrowed === undefined) return scope;
  return scope === undefined ? narrowed : andRowConditions(scope, narrowed);
}
