// The routes the OpenAPI document describes: exactly those createServer mounts (collectRoutes), in a
// stable order: services and resources by name, crud actions in CONTRACT §2 order, custom actions by name.
import { CRUD_ACTION_NAMES, type CrudActionName } from '../actions';
import type { ActionRoute, CrudRouteSource } from '../route';
import type { Resource, Service, ServiceAction } from '../service';
import { collectRoutes, type MountedRoute } from '../model/action-routes';

interface RouteBase {
  readonly service: Service;
  readonly route: ActionRoute;
  /** The full Express path, prefix included (`/api/notes/:id`). */
  readonly path: string;
  /** `<service>.<resource>.<action>` or `<service>.<action>`: operationId and summary. */
  readonly operationId: string;
  readonly tag: string;
}

export interface DocumentedCrudRoute extends RouteBase {
  readonly kind: 'crud';
  readonly resource: Resource;
  readonly action: CrudActionName;
  readonly source: CrudRouteSource;
}

export interface DocumentedServiceRoute extends RouteBase {
  readonly kind: 'service-action';
  readonly action: ServiceAction;
}

export type DocumentedRoute = DocumentedCrudRoute | DocumentedServiceRoute;

/** Code-unit order, never the locale's: the document must not depend on the machine that builds it. */
function byName<T extends { name: string }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/**
 * The mounted routes of `services` under `prefix`, in document order. Throws like createServer on a route mounted
 * twice. `mounted`: the routes as createServer collected them, when it has (collected here otherwise).
 */
export function documentedRoutes(services: readonly Service[], prefix: string, mounted: readonly MountedRoute[] = collectRoutes(services, prefix)): DocumentedRoute[] {
  const paths = new Map<ActionRoute, string>();
  for (const { route, path } of mounted) paths.set(route, path);

  const routes: DocumentedRoute[] = [];
  for (const service of byName(services)) {
    for (const resource of byName(service.resources)) {
      const crudRoutes = resource.routes.filter((route) => route.source.kind === 'crud' && paths.has(route));
      for (const action of CRUD_ACTION_NAMES) {
        const route = crudRoutes.find((candidate) => (candidate.source as CrudRouteSource).action === action);
        if (route === undefined) continue; // switched off, or `routes.<action>: false`
        routes.push({
          kind: 'crud',
          service,
          resource,
          action,
          source: route.source as CrudRouteSource,
          route,
          path: paths.get(route)!,
          operationId: `${service.name}.${resource.name}.${action}`,
          tag: `${service.name}.${resource.name}`,
        });
      }
    }
    for (const action of byName(service.actions)) {
      if (!paths.has(action.route)) continue;
      routes.push({
        kind: 'service-action',
        service,
        action,
        route: action.route,
        path: paths.get(action.route)!,
        operationId: `${service.name}.${action.name}`,
        tag: service.name,
      });
    }
  }
  return routes;
}

/** `/api/notes/:id` → `/api/notes/{id}` (OpenAPI path templating). */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}
