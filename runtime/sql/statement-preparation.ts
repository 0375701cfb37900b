// spec §8 rule 4, in one place: while the server is built, the default statement of every get and list route
// without a scope of its own is prepared into the cache: the fixed shape its compiled handler runs (the SQL the
// compiler wrote), or Drizzle's for the generic path. With `statementCache: false` the served databases prepare nothing.
import { SetupError } from '../errors';
import type { MountedRoute } from '../model/action-routes';
import type { Service } from '../service';
import { ACTION_PLANS, isPreparedAtStart, type PreparedAction } from './action-plans';
import { prepareRead } from '../dialects/read-replicas';
import { fixedKey, pageText, rawReadStatementOf, type FixedStatementTexts } from './fixed-execution';
import { canPrepareFixedStatements, planOf, type ResourcePlan } from './resource-plan';
import { prepareNowOrOnFirstUse } from './prepare-on-first-use';
import { getKey, getQuery, pageKey, pageQuery, statementName } from './select-shapes';
import { statementCacheOf } from './statement-cache';

/** `statementCache: false` turns the cache off for the served databases: first, before any handler prepares a statement. */
export function applyStatementCacheOption(services: readonly Service[], option: unknown): void {
  if (option !== undefined && typeof option !== 'boolean') throw new SetupError('statementCache must be true or false');
  if (option === false) for (const service of services) statementCacheOf(service.db).disable();
}

/** Where routes run fixed shapes: each resource's SQL of them, by label (a compilation's `resources`). */
export type FixedTexts = Readonly<Record<string, { readonly statements?: FixedStatementTexts }>>;

/**
 * spec §8 rule 4 for the mounted routes, once their handlers are chosen. `fixed` holds the SQL of the resources whose
 * compiled handlers run fixed shapes; every other route runs Drizzle's statement (null: the generic handler's).
 */
export function prepareStatements(routes: readonly MountedRoute[], fixed: FixedTexts | null): void {
  for (const { route } of routes) {
    const source = route.source;
    // A route with its own scope never runs the fixed shapes through that route (spec §8 rule 2 applies per call).
    if (source.kind !== 'crud' || source.routeScope !== null || !isPreparedAtStart(source.action)) continue;
    prepareDefaultStatement(planOf(source.runtime), source.action, fixed?.[source.runtime.label]?.statements ?? null);
  }
}

/** The default statement of a get or list action: the fixed shape whose SQL `texts` holds, else Drizzle's. */
function prepareDefaultStatement(plan: ResourcePlan, action: PreparedAction, texts: FixedStatementTexts | null): void {
  const cache = plan.statementCache;
  if (!canPrepareFixedStatements(plan) || cache === null || !cache.isEnabled) return;
  if (texts !== null) {
    const shape = ACTION_PLANS[action].fixedShape as keyof FixedStatementTexts;
    const text = texts[shape];
    // A dialect that writes the LIMIT into the SQL: the default page size is the statement prepared now.
    if (typeof text === 'string') cache.preload(fixedKey(plan, shape), () => rawReadStatementOf(plan, text));
    else cache.preload(fixedKey(plan, shape, plan.defaultLimit), () => rawReadStatementOf(plan, pageText(text, plan.defaultLimit)));
    return;
  }
  const key = action === 'get' ? getKey(plan, plan.readable) : pageKey(plan, plan.readable, '', undefined, plan.defaultLimit);
  cache.preload(key, () => {
    const query = action === 'get' ? getQuery(plan, plan.readable) : pageQuery(plan, plan.readable, undefined, undefined, plan.defaultLimit);
    const name = statementName(query.toSQL().sql);
    // A read: on a withReplicas database, prepared on each replica (read-replicas.ts).
    return prepareRead(plan.db, query, (on) => prepareNowOrOnFirstUse(plan, on, name));
  });
}
