// The action routes' Express routes, made when a request first reaches their place in the router. Express
// compiles each route's path (path-to-regexp) when the route is made: a 50-resource application has 400, about
// 20 ms of a bundle's 300 ms start (issue 16). With compiled handlers the route dispatch answers action requests
// before the router, so most processes never make them at all.
import express, { type Express, type RequestHandler, type Router } from 'express';
import type { MountedRoute } from '../model/action-routes';

/**
 * Mounts the action routes on `app` as one layer, a router of `chains[i]` for `routes[i]` made on its first
 * request, with the app's routing options. It matches as the same routes on `app` would, with the same
 * `req.params`, HEAD for GET, and errors passed on; OPTIONS is passed on unseen, since a router answers it with
 * the methods of the routes it holds while the app's router lets it reach the JSON 404, as it always has.
 */
export function mountActionRoutesOnFirstUse(app: Express, routes: readonly MountedRoute[], chains: readonly (readonly RequestHandler[])[]): void {
  let router: Router | null = null;
  const makeRouter = (): Router => {
    const made = express.Router({ caseSensitive: app.enabled('case sensitive routing'), strict: app.enabled('strict routing') });
    routes.forEach(({ route, path }, index) => made[route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete'](path, ...chains[index]));
    return made;
  };
  app.use((req, res, next) => {
    if (req.method === 'OPTIONS') return next();
    (router ??= makeRouter())(req, res, next);
  });
}
