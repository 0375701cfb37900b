// What a built bundle's server.js calls: the entry loaded as `tessera start` loads it, the compiled handlers,
// the port by spec §8.1's bundle rule (PORT, then build's --port); never the generator or ts-morph.
import path from 'node:path';
import type { Server } from 'node:http';
import { exitWithError } from './exit-with-error';
import { loadEntry } from './load-entry';
import { resolvePort } from './port';
import { serve } from './serve';

export interface BundleStart {
  /** The application entry, absolute (server.js resolves it from its own folder). */
  entry: string;
  /** The `--port` given to `tessera build` (default 4000). */
  fallbackPort: number;
  /** The bundle's compilation.js: `{ handlers: { [operationId]: createHandler } }`. */
  compilation: unknown;
}

/** Starts the bundled server, or exits with one `tessera: …` line (invalid PORT, entry errors, busy port). */
export function startBundle(start: BundleStart): Server {
  try {
    // spec §8.1: a compiled bundle reads PORT, then falls back to the port it was built with.
    const port = resolvePort({ env: process.env.PORT, fallback: start.fallbackPort });
    // Messages name the entry as the user would type it from here, never as an absolute path.
    const { options } = loadEntry(path.relative(process.cwd(), start.entry).split(path.sep).join('/'));
    return serve({ ...options, compilation: start.compilation }, port);
  } catch (error) {
    exitWithError(error);
  }
}
