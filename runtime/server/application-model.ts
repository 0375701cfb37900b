// The application as createServer mounts it, described once (issue 24): the resolved prefix, the services served,
// the action routes collected in mount order, and every crud resource's description with its plan. createServer
// builds on it, and `tessera build` asks for the very same description, so a bundle never mounts otherwise.
import type { MountedRoute } from '../model/action-routes';
import { collectRoutes } from '../model/action-routes';
import { resolveRelations } from '../model/relations';
import { listServices } from '../registry';
import type { Service } from '../service';
import { describeResource, type ResourceDescription } from '../sql/resource-description';
import { checkPathOption } from './path-option';
import { DEFAULT_PREFIX, type ServerOptions } from './server-options';

export interface ApplicationModel {
  /** The prefix of the action routes, resolved: `/api` by default, `''` for none. */
  readonly prefix: string;
  /** The services served: the `services` option's, else the registry's. */
  readonly services: readonly Service[];
  /** The action routes createServer mounts, collected once: fixed paths first, then declaration order. */
  readonly routes: readonly MountedRoute[];
  /**
   * Every crud resource of the services, also one whose routes are all off (its in-process calls validate too), in
   * declaration order; described when first read (createServer itself never needs them).
   */
  readonly resources: readonly ResourceDescription[];
}

/** @internal The prefix as createServer mounts routes under it. */
export function resolvePrefix(prefix: string | undefined): string {
  if (prefix === undefined) return DEFAULT_PREFIX;
  if (prefix === '' || prefix === '/') return '';
  return checkPathOption('prefix', prefix, DEFAULT_PREFIX);
}

/**
 * @internal The application these server options serve: what createServer mounts and `tessera build` compiles.
 * Throws a SetupError for a bad prefix, a route mounted twice, or a relation without its join (CONTRACT §9).
 */
export function describeApplication(options: Pick<ServerOptions, 'prefix' | 'services'>): ApplicationModel {
  const prefix = resolvePrefix(options.prefix);
  const services = options.services ?? listServices();
  const routes = Object.freeze(collectRoutes(services, prefix));
  // CONTRACT §9: every relation's join and related resource, resolved now: a missing or ambiguous join is a setup error.
  for (const service of services) for (const resource of service.resources) if (resource.crudRuntime !== null) resolveRelations(resource.crudRuntime);
  let resources: readonly ResourceDescription[] | null = null;
  return Object.freeze({
    prefix,
    services,
    routes,
    get resources() {
      resources ??= Object.freeze(services.flatMap((service) => service.resources.flatMap((resource) => (resource.crudRuntime === null ? [] : [describeResource(resource.crudRuntime)]))));
      return resources;
    },
  });
}
