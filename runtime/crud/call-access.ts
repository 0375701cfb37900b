// The access steps of a call (CONTRACT §3): authorize, then the scope as SQL. Every action runs them, and so does every
// relation a call includes or filters through, against the related resource (CONTRACT §9).
import { is, SQL } from 'drizzle-orm';
import type { CrudActionName } from '../actions';
import { TesseraError } from '../errors';
import type { CrudRuntime } from '../model/crud-runtime';
import type { AnyContext, ScopeFunction, Where } from '../model/options';
import type { Scope } from '../sql/resource-plan';
import { compileScope } from '../sql/scope-shapes';
import { andRowConditions } from '../sql/where';
import { isPending } from '../model/maybe-pending';

function checkAllowed(rt: CrudRuntime, action: CrudActionName, allowed: unknown): void {
  if (allowed !== true) throw new TesseraError('FORBIDDEN', `${rt.resourceName}.${action} is not allowed`);
}

/**
 * Runs `authorize` for a call; FORBIDDEN unless it answers true. Synchronous (undefined) when `authorize` is, so that a
 * caller awaits only what is pending (issue 27: an await per step is a microtask per step); a promise otherwise.
 */
export function authorizeCall(rt: CrudRuntime, action: CrudActionName, input: unknown, ctx: AnyContext): void | Promise<void> {
  if (rt.access.isPublic) return;
  // spec §5.1 rule 4: an access object without authorize rejects every call.
  if (rt.access.authorize === null) throw new TesseraError('FORBIDDEN', `${rt.resourceName}.${action} is not authorized for anyone`);
  const allowed = rt.access.authorize({ ctx, action, input, resource: rt.resourceName });
  if (isPending(allowed)) return Promise.resolve(allowed).then((answer) => checkAllowed(rt, action, answer));
  checkAllowed(rt, action, allowed);
}

/** A scope function's answer as SQL over every column (hidden ones included), or undefined for none. */
function conditionOf(rt: CrudRuntime, condition: Where | SQL | undefined | null): Scope {
  if (condition === undefined || condition === null) return undefined;
  if (is(condition, SQL)) return condition;
  return compileScope(condition as Where, rt.scopeColumns, rt.dialect);
}

function scopeCondition(rt: CrudRuntime, scope: ScopeFunction, action: CrudActionName, ctx: AnyContext): Scope | Promise<Scope> {
  const condition = scope({ ctx, action });
  return isPending(condition) ? Promise.resolve(condition).then((answer) => conditionOf(rt, answer)) : conditionOf(rt, condition);
}

function narrow(rt: CrudRuntime, scope: Scope, routeScope: ScopeFunction, action: CrudActionName, ctx: AnyContext): Scope | Promise<Scope> {
  const both = (narrowed: Scope): Scope => (narrowed === undefined ? scope : scope === undefined ? narrowed : andRowConditions(scope, narrowed));
  const narrowed = scopeCondition(rt, routeScope, action, ctx);
  return isPending(narrowed) ? narrowed.then(both) : both(narrowed);
}

/**
 * The call's scope: the access scope, ANDed with the route's own scope for calls through a route that has one
 * (CONTRACT §2: a route narrows, never widens). Undefined when neither gives a condition (spec §8 rule 2). Synchronous
 * when the scope functions are (see authorizeCall), a promise otherwise.
 */
export function resolveScope(rt: CrudRuntime, action: CrudActionName, ctx: AnyContext, routeScope: ScopeFunction | null = null): Scope | Promise<Scope> {
  const scope = rt.access.scope === null ? undefined : scopeCondition(rt, rt.access.scope, action, ctx);
  if (routeScope === null) return scope;
  return isPending(scope) ? scope.then((resolved) => narrow(rt, resolved, routeScope, action, ctx)) : narrow(rt, scope, routeScope, action, ctx);
}
