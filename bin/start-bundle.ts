// What a built bundle's server.js calls: the bundled application loaded with Node's own loader (no tsx), the
// compiled handlers, the port by spec §8.1's bundle rule (PORT, then build's --port); never the generator,
// ts-morph, TypeScript, tsx or esbuild.
import cluster from 'node:cluster';
import path from 'node:path';
import type { Server } from 'node:http';
import { checkBundleFilesPresent } from './bundle-files-present';
import { BUNDLE_PORT_SOURCES } from './cluster/worker-connections';
import { exitWithError } from './exit-with-error';
import { loadEntry } from './load-entry';
import { resolvePort } from './port';
import { serve } from './serve';
import { resolveWorkers } from './workers';

export interface BundleStart {
  /** The bundled application entry, absolute (server.js names it beside itself). */
  entry: string;
  /** The `--port` given to `tessera build` (default 4000). */
  fallbackPort: number;
  /** The bundle's compilation.js: `{ resources: { [label]: … }, handlers: { [operationId]: createHandler } }`, modules behind getters. */
  compilation: unknown;
  /** The bundle's copy of the entry's `documentation` folder (absolute paths), when it has one. */
  documentation?: { dir: string; components?: string };
}

/**
 * Starts the bundled server, or exits with one `tessera: …` line (invalid PORT, entry errors, busy port).
 * `TESSERA_HOST` names the interface to listen on (default: all, as a container needs); `TESSERA_WORKERS`
 * (a number, or `auto`) serves the port from that many processes through node:cluster.
 */
export async function startBundle(start: BundleStart): Promise<Server | null> {
  try {
    // spec §8.1: a compiled bundle reads PORT, then falls back to the port it was built with.
    const port = resolvePort({ env: process.env.PORT, fallback: start.fallbackPort });
    const host = process.env.TESSERA_HOST === undefined || process.env.TESSERA_HOST === '' ? undefined : process.env.TESSERA_HOST;
    const workers = resolveWorkers({ env: process.env.TESSERA_WORKERS });
    // server.js names the entry beside itself, in the bundle's folder.
    checkBundleFilesPresent(path.dirname(start.entry));
    // Messages name the entry as the user would type it from here, never as an absolute path.
    const entry = path.relative(process.cwd(), start.entry).split(path.sep).join('/');
    // Before the application defines its resources: in-process calls it makes while loading use these validators.
    const { registerCompiledResources } = require('../runtime/handlers/compiled-resources') as typeof import('../runtime/handlers/compiled-resources');
    registerCompiledResources((start.compilation as { resources?: Parameters<typeof registerCompiledResources>[0] }).resources ?? {});
    const { options } = await loadEntry(entry, { typescript: false });
    if (workers !== null && cluster.isPrimary) {
      // The primary's modules load only in a primary: a single process or a worker serves without them.
      const { runPrimary } = require('./cluster/primary') as typeof import('./cluster/primary');
      const { checkDatabasesOnce } = require('./cluster/primary-database-check') as typeof import('./cluster/primary-database-check');
      const { primaryServices } = require('./cluster/primary-dashboard') as typeof import('./cluster/primary-dashboard');
      await checkDatabasesOnce(options);
      await runPrimary({ workers, port, host, portSources: BUNDLE_PORT_SOURCES, services: primaryServices(options) });
      return null;
    }
    const documentation = start.documentation === undefined ? {} : { documentation: start.documentation };
    // Awaited here, inside the try: what createServer refuses (a missing secret, a dashboard option, an unreachable
    // database) is one line too, never an unhandled rejection.
    return await serve({ ...options, ...documentation, compilation: start.compilation }, { port, host, portSources: BUNDLE_PORT_SOURCES });
  } catch (error) {
    exitWithError(error);
  }
}
