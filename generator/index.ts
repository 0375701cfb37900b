// The code generator: turns the mounted routes of an application into specialized handler modules.
// createServer reaches it through one lazy import (`compiler: true`); `tessera build` writes its output.
import type { MountedRoute } from '../runtime/server/action-routes';
import { emitHandlerModule, type GeneratedModule } from './emit/handler-file';

export type { GeneratedModule };
export { BuildError } from './errors';

/** One module per mounted route, ordered by operationId so output is stable whatever the declaration order. */
export function generateHandlerModules(routes: readonly MountedRoute[]): GeneratedModule[] {
  return routes.map(emitHandlerModule).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
