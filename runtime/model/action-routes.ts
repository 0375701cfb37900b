// Collects the action routes of the mounted services, refuses two routes with the same method and
// path (CONTRACT §2), and orders fixed paths before `/:id` ones.
import { SetupError } from '../errors';
import type { ActionRoute } from '../route';
import type { Service } from '../service';

export interface MountedRoute {
  readonly route: ActionRoute;
  /** The full Express path: prefix + route path. */
  readonly path: string;
}

/** The operationId of a mounted route (CONTRACT §5): `shop.notes.get`, or `shop.ping` for a service action. */
export function routeKey({ route }: MountedRoute): string {
  return route.source.kind === 'crud' ? `${route.source.runtime.label}.${route.source.action}` : route.source.label;
}

function hasParameter(path: string): boolean {
  return path.includes('/:');
}

export function collectRoutes(services: readonly Service[], prefix: string): MountedRoute[] {
  const mounted: MountedRoute[] = [];
  const seen = new Map<string, string>();
  const add = (owner: string, route: ActionRoute) => {
    const path = prefix + route.path;
    // `/notes/:id` and `/notes/:key` would be the same route: compare with parameters blanked out.
    const key = `${route.method} ${path.replace(/:[^/]+/g, ':')}`;
    const previous = seen.get(key);
    if (previous !== undefined) throw new SetupError(`${route.method} ${path} is mounted twice: by ${previous} and by ${owner}`);
    seen.set(key, owner);
    mounted.push({ route, path });
  };
  for (const service of services) {
    for (const resource of service.resources) for (const route of resource.routes) add(`${service.name}.${route.action}`, route);
    for (const action of service.actions) add(`${service.name}.${action.name}`, action.route);
  }
  // Fixed paths first, so `/notes/count` is never taken for an id (stable sort keeps declaration order).
  return mounted.sort((a, b) => Number(hasParameter(a.path)) - Number(hasParameter(b.path)));
}
