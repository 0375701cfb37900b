// GET /_app/services (CONTRACT §5): the mounted services, their resources, actions and routes.
import type { RequestHandler } from 'express';
import type { Service } from '../service';

/** Built once at construction: the answer never changes while the server runs. */
export function servicesRoute(services: readonly Service[], prefix: string): RequestHandler {
  const body = JSON.stringify({
    services: services.map((service) => ({
      name: service.name,
      resources: service.resources.map((resource) => ({
        name: resource.name,
        actions: [...resource.actions],
        routes: resource.routes.map((route) => ({ action: route.action, method: route.method, path: prefix + route.path })),
      })),
      actions: service.actions.map((action) => ({ name: action.name, method: action.route.method, path: prefix + action.route.path })),
    })),
  });
  return (_req, res) => {
    res.type('application/json').send(body);
  };
}
