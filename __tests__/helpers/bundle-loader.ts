// The bundle mode of the parity matrix: `tessera build`'s buildBundle writes the services' bundle to a fresh
// temporary folder, and its compilation.js is loaded with plain `require`, as the bundle's server.js loads it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Compilation, ServerOptions } from 'tessera-api';
import { buildBundle } from '../../generator';
import { describeApplication } from '../../runtime/server/application-model';
import { linkPackages } from './bundles';

/**
 * One build, made when the first server asks for it and started by every later one, as one bundle is
 * started again and again: only use it for servers of the same definitions (the suites all serve
 * defineTestService). Building takes seconds (the type check, esbuild), so a run builds once.
 */
export class BuiltBundle {
  #directory: string | null = null;
  #compilation: Compilation | null = null;

  /** What `require('<bundle>/compilation.js')` answers, for createServer's `compilation`. */
  compilationFor(options: ServerOptions): Compilation {
    if (this.#compilation !== null) return this.#compilation;
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-parity-bundle-'));
    this.#directory = directory;
    // The bundle's server.js is never run here (the suites start the compilation themselves): entry and port are nominal.
    const application = { path: 'entry.mjs', text: '// The suites define their services in-process.\n' };
    buildBundle({ model: describeApplication(options), options, entry: 'app.ts', application, documentation: null, port: 4000 }, directory);
    // Generated code requires tessera-api/validation-runtime: it resolves from node_modules beside the bundle, as when
    // deployed (tessera-api linked to the repository, whose package.json points at lib/).
    linkPackages(directory);
    this.#compilation = require(path.join(directory, 'compilation.js')) as Compilation;
    return this.#compilation;
  }

  remove(): void {
    if (this.#directory !== null) fs.rmSync(this.#directory, { recursive: true, force: true });
    this.#directory = null;
    this.#compilation = null;
  }
}
