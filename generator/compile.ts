// Compile at construction (`compiler: true`): the modules of the mounted routes, as text. This is the
// generator's one entry that the runtime reaches (through runtime/handlers/compiler-seam.ts); it loads the
// emitters only, never the bundle writer, ts-morph or esbuild.
import type { CrudRuntime } from '../runtime/crud/crud-runtime';
import type { MountedRoute } from '../runtime/server/action-routes';
import { emitHandlerModule, type GeneratedModule } from './emit/handler-file';
import { emitResourceModule } from './emit/resource-module';

export type { GeneratedModule };

const byKey = (a: { key: string }, b: { key: string }): number => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);

/** The crud resources behind `routes`, one each. */
export function runtimesOf(routes: readonly MountedRoute[]): CrudRuntime[] {
  const runtimes = new Map<string, CrudRuntime>();
  for (const { route } of routes) if (route.source.kind === 'crud') runtimes.set(route.source.runtime.label, route.source.runtime);
  return [...runtimes.values()];
}

/**
 * One module per crud resource in `runtimes` (default: those the routes serve), by label, then one per mounted
 * route, by operationId: the order is stable whatever the declaration order.
 */
export function generateHandlerModules(routes: readonly MountedRoute[], runtimes: readonly CrudRuntime[] = runtimesOf(routes)): GeneratedModule[] {
  const resources = runtimes.map(emitResourceModule).sort(byKey);
  return [...resources, ...routes.map(emitHandlerModule).sort(byKey)];
}
