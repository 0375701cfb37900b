// The global service registry: defineService adds to it, createServer mounts it by default.
import { SetupError } from './errors';
import type { Service } from './service';

const services: Service[] = [];

/** @internal Called by defineService. */
export function registerService(service: Service): void {
  if (services.some((existing) => existing.name === service.name)) {
    throw new SetupError(`a service named "${service.name}" is already registered`);
  }
  services.push(service);
}

/**
 * Every registered service, in registration order.
 *
 * @example
 * const names = listServices().map((service) => service.name);
 */
export function listServices(): Service[] {
  return [...services];
}

/**
 * Empties the registry, so that tests can define services again.
 *
 * @example
 * afterEach(() => clearRegistry());
 */
export function clearRegistry(): void {
  services.length = 0;
}
