// defineService: a service, registered in the global registry. The service registers from here, so neither the
// Service class nor the registry imports the other (the registry holds services by type only).
import { registerService } from './registry';
import { Service, type ServiceDeclaration } from './service';

/**
 * Declares a service and registers it in the global registry.
 *
 * @example
 * const blog = defineService({ name: 'blog', db: drizzle(new Database('blog.db')) });
 */
export function defineService<TDb>(declaration: ServiceDeclaration<TDb>): Service<TDb> {
  const service = new Service(declaration);
  registerService(service);
  return service;
}
