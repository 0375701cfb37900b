// Lets Node load TypeScript entries, ES modules and CommonJS alike: tsx's ESM hooks (module.register), its
// CommonJS require hook and ours (drizzle-commonjs-hooks.mjs, esm-format-hooks.mjs), registered once, only by
// commands that load a source entry (never by a bundle).
import { register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { optionalPackageFailure, TSX } from '../runtime/optional-package';

/** The part of `tsx/esm/api` and `tsx/cjs/api` used here (their types need a newer moduleResolution). */
interface TsxApi {
  register(): unknown;
}

/** Imports a module with Node's own loader (a real import(), which TypeScript would otherwise rewrite). */
const importModule = require('../runtime/native-import.js') as (specifier: string) => Promise<unknown>;

let registered: Promise<void> | null = null;

/** A query that makes esm-format-hooks.mjs load a file as an ES module. */
export const ESM_FORMAT_QUERY = 'tessera-format=module';

/** A file tsx must compile. */
const TYPESCRIPT_FILE = /\.[cm]?tsx?$/;

/**
 * Registers tsx for `import()` and `require()` of .ts/.tsx/.mts/.cts files; later calls do nothing. Without tsx
 * installed (an optional peer dependency) a JavaScript entry still loads, a TypeScript one fails naming tsx.
 */
export function registerTypeScriptHooks(entryPath: string): Promise<void> {
  registered ??= (async () => {
    // tsx's CommonJS build of its ESM api resolves its loader to a path that does not exist (tsx 4.23):
    // its ES module build resolves it right. Loaded here, not at the top: a bundle must not load tsx or esbuild.
    // tsx is an optional peer dependency (issue 28): a production install may not have it.
    try {
      ((await importModule('tsx/esm/api')) as TsxApi).register();
      (require('tsx/cjs/api') as TsxApi).register();
    } catch (error) {
      const failure = optionalPackageFailure(TSX, error);
      if (failure === error || TYPESCRIPT_FILE.test(entryPath)) throw failure;
    }
    // One Drizzle in the process: an ES module's imports of it take the CommonJS build Tessera requires.
    register(pathToFileURL(require.resolve('./drizzle-commonjs-hooks.mjs')));
    // Registered last, so it runs first and can overrule the format tsx infers from the package's `type`.
    register(pathToFileURL(require.resolve('./esm-format-hooks.mjs')));
  })();
  return registered;
}
