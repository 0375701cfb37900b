// Imports the user's entry module (which registers its services) and reads its default-exported server
// options. Every way this can fail becomes an EntryError naming the entry, and the file and line to blame.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describeEntryFailure } from './entry-failure';
import { entryOptions } from './entry-options';
import { resolveEntryRelativePaths } from './entry-relative-paths';
import type { EntryFormat } from '../generator';
import { ESM_FORMAT_QUERY, registerTypeScriptHooks } from './typescript-hooks';

/** The entry is missing, throws while loading, or registers no service. */
export class EntryError extends Error {
  override name = 'EntryError';
  /** `file:line:column` of the failure in the application's code, when known. */
  readonly location: string | undefined;

  /** The entry (or a file it imports) does not parse. */
  readonly isSyntaxError: boolean;

  constructor(message: string, options: { cause?: unknown; location?: string; isSyntaxError?: boolean } = {}) {
    super(message, { cause: options.cause });
    this.location = options.location;
    this.isSyntaxError = options.isSyntaxError === true;
  }
}

export interface LoadedEntry {
  /** How Node ran it (CommonJS through require, or an ES module); `tessera build` bundles it in that format. */
  format: EntryFormat;
  /** The entry's default export (server options, checked; `{}` without one), `documentation` made relative to the entry; handed to createServer. */
  options: Record<string, unknown>;
}

export interface LoadOptions {
  /**
   * Register tsx first (default), so the entry may be TypeScript. A bundle's entry is already JavaScript and
   * loads without it.
   */
  typescript?: boolean;
  /** The folder relative `documentation` paths start at (default: the entry's). */
  entryDir?: string;
}

/**
 * Runs the entry as Node would run it: CommonJS through require() (.cjs, .cts, and .js/.ts files of a package
 * without `"type": "module"`), anything else through import(). require() keeps CommonJS entries on Node's own
 * CommonJS loader, which the loader hooks' CommonJS path of Node 20 cannot replace for every package.
 */
async function runEntry(absolutePath: string, isTypeScriptEnabled: boolean): Promise<{ entryModule: unknown; format: EntryFormat }> {
  const url = pathToFileURL(absolutePath).href;
  if (!isCommonJsFile(absolutePath)) return { entryModule: await importModule(url), format: 'esm' };
  try {
    return { entryModule: { default: require(absolutePath) as unknown }, format: 'cjs' };
  } catch (error) {
    // Node runs an ambiguous file that needs ES module syntax as an ES module; tsx compiles a TypeScript file
    // of a CommonJS package to CommonJS, where top-level await cannot be: run it as an ES module instead.
    if (!isTypeScriptEnabled || !COMMONJS_TOP_LEVEL_AWAIT.test(String((error as Error | null)?.message))) throw error;
    return { entryModule: await importModule(`${url}?${ESM_FORMAT_QUERY}`), format: 'esm' };
  }
}

/** Whether Node treats the file as CommonJS: by its extension, else by its package's `type`. */
function isCommonJsFile(file: string): boolean {
  const extension = path.extname(file);
  if (extension === '.cjs' || extension === '.cts') return true;
  if (extension === '.mjs' || extension === '.mts') return false;
  for (let folder = path.dirname(file); ; folder = path.dirname(folder)) {
    const packageJson = path.join(folder, 'package.json');
    if (fs.existsSync(packageJson)) return (JSON.parse(fs.readFileSync(packageJson, 'utf8')) as { type?: unknown }).type !== 'module';
    if (path.dirname(folder) === folder) return true;
  }
}

/** esbuild's refusal (through tsx) to compile top-level await to CommonJS. */
const COMMONJS_TOP_LEVEL_AWAIT = /Top-level await is currently not supported with the "cjs" output format/;

/** Imports a module with Node's own loader: ES modules (top-level await included) and CommonJS alike. */
const importModule = require('../runtime/native-import.js') as (url: string) => Promise<unknown>;

/** Throws the EntryError of an entry (`entryPath` as given, `absolutePath` resolved) that is no file. */
export function checkEntryFile(entryPath: string, absolutePath: string): void {
  if (!fs.existsSync(absolutePath)) throw new EntryError(`entry not found: ${entryPath}`);
  if (fs.statSync(absolutePath).isDirectory()) throw new EntryError(`entry ${entryPath} is a folder: name the file that defines your services (app.ts)`);
}

/** Imports `entryPath` (relative to process.cwd()): TypeScript or JavaScript, ES module or CommonJS. */
export async function loadEntry(entryPath: string, options: LoadOptions = {}): Promise<LoadedEntry> {
  const absolutePath = path.resolve(process.cwd(), entryPath);
  checkEntryFile(entryPath, absolutePath);
  if (options.typescript !== false) await registerTypeScriptHooks(absolutePath);

  let loaded: { entryModule: unknown; format: EntryFormat };
  // A top-level await that never settles (a promise nothing resolves, an import cycle through `await import`) leaves
  // nothing to run: Node would end the process with code 0 and not a word. It says so and fails instead.
  const onNeverLoaded = (code: number) => {
    if (code !== 0) return;
    process.stderr.write(`tessera: entry ${entryPath} never finished loading: a top-level await in it (or in a module it imports) never settled\n`);
    process.exitCode = 1;
  };
  process.once('exit', onNeverLoaded);
  try {
    loaded = await runEntry(absolutePath, options.typescript !== false);
  } catch (error) {
    const { reason, location, isSyntaxError } = describeEntryFailure(error);
    throw new EntryError(`entry ${entryPath} failed to load: ${reason}`, { cause: error, location, isSyntaxError });
  } finally {
    process.off('exit', onNeverLoaded);
  }
  const { entryModule, format } = loaded;

  // Loaded only now so that `--help` and PORT errors answer without loading the runtime and its drivers.
  const { listServices } = require('../runtime') as typeof import('../runtime');
  if (listServices().length === 0) {
    throw new EntryError(`entry ${entryPath} registered no service: call defineService(...) in it`);
  }
  const entryDir = options.entryDir ?? path.dirname(absolutePath);
  const serverOptions = entryOptions(entryModule, entryPath, absolutePath, (message, location) => new EntryError(message, { location }));
  return { format, options: resolveEntryRelativePaths(serverOptions, entryDir) };
}
