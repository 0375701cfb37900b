// Whether an operation can answer 403 through its relations (CONTRACT §9): an include or a relation filter reads the
// related resource under its own access rules, so a public resource's route is refused where one it reaches is not.
import type { CrudActionName } from '../actions';
import type { CrudRuntime } from '../model/crud-runtime';
import { reachedResources } from './reached-resources';

/** The actions whose input takes a where, which may filter through relations marked `filter: true`. */
const WHERE_ACTIONS: ReadonlySet<CrudActionName> = new Set(['list', 'findOne', 'count', 'exists', 'updateMany', 'deleteMany']);
/** The actions whose input takes include options, which nest (and whose where filters) through every relation. */
const INCLUDE_ACTIONS: ReadonlySet<CrudActionName> = new Set(['list', 'findOne']);

/** The resources an HTTP call of `action` can read through relations: get's `?include=` names direct relations only. */
function resourcesReached(rt: CrudRuntime, action: CrudActionName): CrudRuntime[] {
  if (INCLUDE_ACTIONS.has(action)) return reachedResources(rt);
  if (action === 'get') return reachedResources(rt, { isDirectOnly: true });
  if (WHERE_ACTIONS.has(action)) return reachedResources(rt, { isFilterOnly: true });
  return [];
}

/** Whether some resource the action can reach through a relation has access rules, whose authorize may refuse the caller. */
export function canRefuseThroughRelations(rt: CrudRuntime, action: CrudActionName): boolean {
  return resourcesReached(rt, action).some((target) => !target.access.isPublic);
}
