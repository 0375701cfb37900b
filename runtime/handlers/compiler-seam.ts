// The one place the runtime reaches the code generator: `compiler: true` generates the handler modules at
// construction through generator/compile.ts, loaded on first use. Nothing else in runtime/ names the generator,
// so `compiler: false`, `compilation` and a built bundle never load it (the layering reads bin → generator → runtime).
import type { MountedRoute } from '../server/action-routes';

/** A generated module as text: a route's handler (keyed by operationId) or a crud resource's module (by label). */
export interface HandlerModuleSource {
  readonly kind: 'route' | 'resource';
  readonly key: string;
  readonly file: string;
  readonly source: string;
}

/** generator/compile.ts's generateHandlerModules, loaded lazily. */
export function generateHandlerModules(routes: readonly MountedRoute[]): HandlerModuleSource[] {
  return (require('../../generator/compile') as typeof import('../../generator/compile')).generateHandlerModules(routes);
}
