// defineService: a service, registered in the global registry. The service registers from here, so neither the
// Service class nor the registry imports the other (the registry holds services by type only).
import { registerService } from './registry';
import { Service, type ServiceDeclaration } from './service';

/**
 * Declares a service and registers it in the global registry. `defineService<Ctx>()(…)` types `ctx` as `Ctx`
 * in the service's resources and actions (without it, `ctx` is the registered `Context`).
 *
 * @example
 * const blog = defineService({ name: 'blog', db: drizzle(new Database('blog.db')) });
 * const shop = defineService<{ user?: { id: string } }>()({ name: 'shop', db });
 */
export function defineService<TDb>(declaration: ServiceDeclaration<TDb>): Service<TDb>;
export function defineService<TContext>(): <TDb>(declaration: ServiceDeclaration<TDb>) => Service<TDb, TContext>;
export function defineService<TDb>(...args: [] | [ServiceDeclaration<TDb>]): Service<TDb> | (<TDb2>(declaration: ServiceDeclaration<TDb2>) => Service<TDb2>) {
  // `defineService<Ctx>()`: only a type, so the service comes from the next call. An explicit undefined is a declaration (refused below).
  if (args.length === 0) return (declaration) => defineService(declaration);
  const service = new Service(args[0] as ServiceDeclaration<TDb>);
  registerService(service);
  return service;
}
