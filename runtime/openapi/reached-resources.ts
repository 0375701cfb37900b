// The resources a resource's relations reach (CONTRACT §9), in the order first reached: what its documents describe
// through includes and relation filters, and whose access rules may refuse its callers.
import type { CrudRuntime } from '../model/crud-runtime';
import { relationOf } from '../model/relations';

export interface ReachOptions {
  /** Only relations declared `filter: true` (what a where can go through). */
  readonly isFilterOnly?: boolean;
  /** Only the resource's own relations, not theirs (get's `?include=`). */
  readonly isDirectOnly?: boolean;
}

/** Every resource reached from `rt` through relations, transitively unless `isDirectOnly`; `rt` itself only through a cycle. */
export function reachedResources(rt: CrudRuntime, { isFilterOnly = false, isDirectOnly = false }: ReachOptions = {}): CrudRuntime[] {
  const found: CrudRuntime[] = [];
  const queue = [rt];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const declaration of current.relations) {
      if (isFilterOnly && !declaration.isFilterable) continue;
      const { target } = relationOf(current, declaration.name)!;
      if (found.includes(target)) continue;
      found.push(target);
      if (!isDirectOnly) queue.push(target);
    }
  }
  return found;
}

/** `Related.blog.users`: the `$defs` prefix of what a document says of a resource reached through relations. */
export function relatedDef(rt: CrudRuntime): string {
  return `Related.${rt.label.replace(/[^A-Za-z0-9._-]/g, '_')}`;
}
