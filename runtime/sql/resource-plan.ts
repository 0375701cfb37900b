// A crud resource as the sql layer runs it: its model (model/crud-runtime.ts, no SQL) plus its database's statement
// cache (spec §8 rule 3) and the prefix of its statement keys. Made once per resource, when the crud plugin attaches
// it; the actions, the compiled handlers (their `resource`) and the start-time preparation all run through it.
import type { SQL } from 'drizzle-orm';
import { hasApplicationDefaults } from '../model/application-defaults';
import type { CrudRuntime } from '../model/crud-runtime';
import { statementCacheOf, type StatementCache } from './statement-cache';

export interface ResourcePlan extends CrudRuntime {
  /** spec §8 rule 3: the database's statement cache, or null when a column is filled by an application function. */
  readonly statementCache: StatementCache | null;
  /** Starts this resource's statement keys; unique per plan, so a redefined resource never meets another's statements. */
  readonly statementPrefix: string;
}

/** The condition every query of a call is ANDed with (CONTRACT §3), or undefined. */
export type Scope = SQL | undefined;

/** Numbers each plan's statement keys. */
let planCount = 0;

const plans = new WeakMap<CrudRuntime, ResourcePlan>();

/** The plan of a resource's model, made on the first call (the crud plugin's, as the resource is defined). */
export function planOf(rt: CrudRuntime): ResourcePlan {
  let plan = plans.get(rt);
  if (plan === undefined) {
    plan = Object.freeze({
      ...rt,
      statementCache: hasApplicationDefaults(rt.table) ? null : statementCacheOf(rt.db),
      statementPrefix: `${++planCount}:${rt.label}|`,
    });
    plans.set(rt, plan);
    plans.set(plan, plan);
  }
  return plan;
}

/** spec §8 rules 2 and 3: the cache serves calls without a scope condition on tables without application defaults. */
export function cacheFor(plan: ResourcePlan, scope: Scope): StatementCache | null {
  const cache = plan.statementCache;
  return scope === undefined && cache !== null && cache.isEnabled ? cache : null;
}

/** spec §8 rule 4: resources without a scope function and without application defaults (rule 3). */
export function canPrepareFixedStatements(plan: ResourcePlan): boolean {
  return plan.access.scope === null && plan.statementCache !== null;
}
