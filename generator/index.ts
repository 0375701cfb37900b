// The code generator: turns the mounted routes of an application into specialized handler modules.
// createServer reaches it through one lazy import (`compiler: true`); `tessera build` writes its output.
import type { MountedRoute } from '../runtime/server/action-routes';
import type { BundleSource } from './bundle/bundle-files';
import type { BundleReport } from './bundle/write-bundle';
import { emitHandlerModule, type GeneratedModule } from './emit/handler-file';

export type { GeneratedModule, BundleSource, BundleReport };
export { BuildError } from './errors';

/** One module per mounted route, ordered by operationId so output is stable whatever the declaration order. */
export function generateHandlerModules(routes: readonly MountedRoute[]): GeneratedModule[] {
  return routes.map(emitHandlerModule).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * `tessera build`: writes the bundle of CONTRACT §7 into `outDir` (absolute) and deletes the previous
 * build's stale files. The bundle writer and ts-morph load only here, so createServer's in-process
 * compile (which imports this module) stays light.
 */
export function buildBundle(source: BundleSource, outDir: string): BundleReport {
  const { bundleFiles } = require('./bundle/bundle-files') as typeof import('./bundle/bundle-files');
  const { writeBundle } = require('./bundle/write-bundle') as typeof import('./bundle/write-bundle');
  return writeBundle(outDir, bundleFiles(source, generateHandlerModules(source.routes)));
}
