// Wrong methods on fixed paths (docs/resources.md, Routes): `GET /api/notes/count` has no route of its own and must
// not fall to `GET /api/notes/:id` as the id "count" (a 400, counted as notes.get). A path that some action route
// mounts without parameters answers 404 NOT_FOUND to every method no route mounts there: the fixed path wins over
// `:id`, as a router's fixed routes do, so a string key spelled like one is out of reach of the `:id` routes.
import type { Express, RequestHandler } from 'express';
import type { MountedRoute } from '../model/action-routes';

/** The fixed paths' methods, keyed as the app's router compares paths (case, trailing slash). */
export interface FixedPaths {
  /** The methods mounted on `path` when it is a fixed path, else undefined. */
  methodsOn(path: string): ReadonlySet<string> | undefined;
}

/** The fixed paths of `routes`, compared as `app` routes (`case sensitive routing`, `strict routing`); null when none. */
export function fixedPaths(app: Express, routes: readonly MountedRoute[]): FixedPaths | null {
  const isSensitive = app.enabled('case sensitive routing');
  const isStrict = app.enabled('strict routing');
  const keyOf = (path: string): string => {
    const loose = !isStrict && path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    return isSensitive ? loose : loose.toLowerCase();
  };
  const methods = new Map<string, Set<string>>();
  for (const { route, path } of routes) {
    if (path.includes(':')) continue;
    const key = keyOf(path);
    let set = methods.get(key);
    if (set === undefined) methods.set(key, (set = new Set()));
    set.add(route.method);
    // The router answers HEAD with a GET route.
    if (route.method === 'GET') set.add('HEAD');
  }
  return methods.size === 0 ? null : { methodsOn: (path) => methods.get(keyOf(path)) };
}

/** The layer ahead of the action routes: a method not mounted on a fixed path goes to `notFound`, before any `:id` route. */
export function fixedPathGuard(paths: FixedPaths, notFound: RequestHandler): RequestHandler {
  return (req, res, next) => {
    const methods = paths.methodsOn(req.path);
    if (methods === undefined || methods.has(req.method)) return next();
    notFound(req, res, next);
  };
}
