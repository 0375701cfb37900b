// Compiled action routes dispatched ahead of Express's router. Express stays the application (it is what
// createServer returns, mounts and extends), but its router walks every layer per request, with a closure, a
// regular-expression match and a next() call each. A request whose method and path are exactly an action
// route's, and that no earlier layer claims, goes straight to its handler with the request and response
// objects Express would have given it; every other request takes the router unchanged.
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';
import type { MountedRoute } from '../model/action-routes';
import type { FixedPaths } from './fixed-paths';

interface DispatchTarget {
  readonly handlers: readonly RequestHandler[];
  /** The route's parameter name (`id`), or null for a fixed path. */
  readonly param: string | null;
}

/** Per method: fixed paths, and paths ending in one `/:param` keyed by what precedes it. */
interface MethodTable {
  readonly fixed: Map<string, DispatchTarget>;
  readonly parameterized: Map<string, DispatchTarget>;
}

/** The parts of Express's router layer this file reads (router 2: `match(path)`, `route.methods`). */
interface RouterLayer {
  match(path: string): unknown;
  route?: { methods: Record<string, boolean | undefined> };
}

const FINAL_PARAMETER = /^(.*)\/:([A-Za-z_$][\w$]*)$/;

function buildTables(routes: readonly MountedRoute[], chains: readonly (readonly RequestHandler[])[], before: readonly RequestHandler[]): Map<string, MethodTable> {
  const tables = new Map<string, MethodTable>();
  routes.forEach(({ route, path }, index) => {
    let table = tables.get(route.method);
    if (table === undefined) tables.set(route.method, (table = { fixed: new Map(), parameterized: new Map() }));
    const handlers = [...before, ...chains[index]];
    const parameter = FINAL_PARAMETER.exec(path);
    if (parameter === null && !path.includes(':')) table.fixed.set(path, { handlers, param: null });
    else if (parameter !== null && !parameter[1].includes(':')) table.parameterized.set(parameter[1], { handlers, param: parameter[2] });
    // Any other pattern is left to the router.
  });
  return tables;
}

/** Runs a handler chain (logger, body parser, handler) the way the router would; an error goes to `fail`. */
function runChain(handlers: readonly RequestHandler[], unclaimed: RequestHandler, req: Request, res: Response, fail: (error: unknown) => void): void {
  let index = 0;
  const next = (error?: unknown) => {
    if (error !== undefined && error !== null) return fail(error);
    // Past the last handler the router would reach its final layer: the JSON 404.
    const handler = index < handlers.length ? handlers[index++] : unclaimed;
    try {
      const result = handler(req, res, next as NextFunction) as unknown;
      if (result instanceof Promise) result.catch(fail);
    } catch (thrown) {
      fail(thrown);
    }
  };
  next();
}

export interface RouteDispatch {
  /** Layers that run before every request, in order (the request logger), or none. */
  readonly before: readonly RequestHandler[];
  /** Router stack positions of the layers between those and the action routes: a request one of them matches takes the router. */
  readonly earlierLayers: { readonly from: number; readonly to: number };
  /** The router's last layer, for a request no handler answered. */
  readonly unclaimed: RequestHandler;
  readonly onError: (error: unknown, req: Request, res: Response, next: NextFunction) => void;
  /** The fixed paths of the routes: one of them is never taken for a `/:id` (the router's guard answers it, fixed-paths.ts). */
  readonly fixed: FixedPaths | null;
}

/**
 * Installs the dispatch on `app`: `chains[i]` serves `routes[i]`. Call it after every layer is registered.
 * Only paths of plain characters are dispatched (no percent-encoding, exact case, no trailing slash), so the
 * router would have chosen the same handler with the same `req.params`.
 */
export function installRouteDispatch(app: Express, routes: readonly MountedRoute[], chains: readonly (readonly RequestHandler[])[], dispatch: RouteDispatch): void {
  const tables = buildTables(routes, chains, dispatch.before);
  const earlier = (app.router as unknown as { stack: RouterLayer[] }).stack.slice(dispatch.earlierLayers.from, dispatch.earlierLayers.to);
  const express = app as unknown as { handle: (req: Request, res: Response, done?: NextFunction) => void };
  const routerHandle = express.handle.bind(app);

  const claimedEarlier = (method: string, path: string): boolean => {
    for (const layer of earlier) {
      if (!layer.match(path)) continue;
      if (layer.route === undefined) return true; // middleware mounted on this path
      const methods = layer.route.methods;
      if (methods._all === true || methods[method.toLowerCase()] === true || (method === 'HEAD' && methods.get === true)) return true;
    }
    return false;
  };

  const find = (req: Request): { target: DispatchTarget; value: string } | null => {
    const table = tables.get(req.method);
    if (table === undefined) return null;
    const url = req.url;
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (path.includes('%')) return null;
    const fixed = table.fixed.get(path);
    if (fixed !== undefined) return claimedEarlier(req.method, path) ? null : { target: fixed, value: '' };
    const slash = path.lastIndexOf('/');
    const value = path.slice(slash + 1);
    const target = value === '' ? undefined : table.parameterized.get(path.slice(0, slash));
    if (target === undefined || claimedEarlier(req.method, path)) return null;
    if (dispatch.fixed !== null && dispatch.fixed.methodsOn(path) !== undefined) return null;
    return { target, value };
  };

  express.handle = function handle(req: Request, res: Response, done?: NextFunction): void {
    const found = find(req);
    if (found === null) return routerHandle(req, res, done);
    // What app.handle and the router set up before a route handler runs.
    (req as any).res = res;
    (res as any).req = req;
    // Already so when the server was started with app.listen (express-objects.ts); a swap costs dearly otherwise.
    if (Object.getPrototypeOf(req) !== app.request) Object.setPrototypeOf(req, app.request);
    if (Object.getPrototypeOf(res) !== app.response) Object.setPrototypeOf(res, app.response);
    if (res.locals === undefined) res.locals = Object.create(null);
    if (req.originalUrl === undefined) req.originalUrl = req.url;
    if (req.baseUrl === undefined) req.baseUrl = '';
    req.params = found.target.param === null ? {} : { [found.target.param]: found.value };
    // As Express's final handler does once headers are out: nothing more can be said, so the connection closes.
    const fail = (error: unknown) => dispatch.onError(error, req, res, (unhandled?: unknown) => (done !== undefined ? done(unhandled) : req.socket.destroy()));
    runChain(found.target.handlers, dispatch.unclaimed, req, res, fail);
  };
}
