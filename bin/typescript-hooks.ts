// Lets Node load TypeScript entries, ES modules and CommonJS alike: tsx's ESM hooks (module.register), its
// CommonJS require hook and ours (drizzle-commonjs-hooks.mjs, esm-format-hooks.mjs), registered once, only by
// commands that load a source entry (never by a bundle).
import fs from 'node:fs';
import { createRequire, register } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { resolveFromApplication, TSX } from '../runtime/optional-package';

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

/** tsx's two APIs, as the application has it installed; null when it has not and a JavaScript entry goes without. */
function tsxApis(entryPath: string): { esm: string; cjs: string } | null {
  let manifest: string;
  try {
    manifest = resolveFromApplication(TSX, 'tsx/package.json', entryPath);
  } catch (error) {
    if (TYPESCRIPT_FILE.test(entryPath)) throw error;
    return null;
  }
  // tsx's CommonJS build of its ESM api resolves its loader to a path that does not exist (tsx 4.23): its ES module
  // build (the `import` condition, which require.resolve does not take) resolves it right.
  const exports = (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports;
  return { esm: path.join(path.dirname(manifest), exports['./esm/api'].import.default), cjs: createRequire(manifest).resolve('tsx/cjs/api') };
}

/**
 * Registers tsx for `import()` and `require()` of .ts/.tsx/.mts/.cts files; later calls do nothing. tsx is the
 * application's (a development tool): without it a JavaScript entry still loads, a TypeScript one fails naming tsx.
 */
export function registerTypeScriptHooks(entryPath: string): Promise<void> {
  registered ??= (async () => {
    // Loaded here, not at the top: a bundle must not load tsx or esbuild.
    const tsx = tsxApis(entryPath);
    if (tsx !== null) {
      ((await importModule(pathToFileURL(tsx.esm).href)) as TsxApi).register();
      (require(tsx.cjs) as TsxApi).register();
    }
    // One Drizzle in the process: an ES module's imports of it take the CommonJS build Tessera requires.
    register(pathToFileURL(require.resolve('./drizzle-commonjs-hooks.mjs')));
    // Registered last, so it runs first and can overrule the format tsx infers from the package's `type`.
    register(pathToFileURL(require.resolve('./esm-format-hooks.mjs')));
  })();
  return registered;
}
