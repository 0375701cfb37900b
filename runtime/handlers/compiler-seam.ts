// The one place the runtime reaches the code generator: `compiler: true` generates the handler modules at
// construction through generator/compile.ts, loaded on first use. Nothing else in runtime/ names the generator,
// so `compiler: false`, `compilation` and a built bundle never load it (the layering reads bin → generator → runtime).
import type { MountedRoute } from '../model/action-routes';

/** A generated module as text: a route's handler, a crud resource's module or a validation document's validators. */
export interface HandlerModuleSource {
  readonly kind: 'route' | 'resource' | 'validators';
  readonly key: string;
  /** Its path in a bundle (`handlers/shop/notes/get.js`): how the other modules require it. */
  readonly file: string;
  readonly source: string;
}

/** generator/compile.ts's generateCompilation, loaded lazily: the modules, and compilation.js's text over them. */
export function generateCompilation(routes: readonly MountedRoute[]): { modules: HandlerModuleSource[]; compilation: string } {
  return (require('../../generator/compile') as typeof import('../../generator/compile')).generateCompilation(routes);
}
