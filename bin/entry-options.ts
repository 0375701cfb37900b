// The entry's default export as the CLI reads it: the server options, checked like createServer checks them, so a
// mistake stops `tessera start`, `dev` and `build` alike with one line pointing at the key. Nothing is ignored in
// silence: an Express application, or any other value, is refused with what to export instead.
import { locateKeyIn } from './entry-failure';
import type { EntryError } from './load-entry';

/** `export default` in an ES module, `module.exports =` in CommonJS: where a bad key is looked for first. */
const DEFAULT_EXPORT = /export\s+default\b|module\.exports\s*=/;

/**
 * The server options `entryModule` default-exports (`{}` without a default export), or an EntryError made by
 * `fail(message, location?)`. A CommonJS entry's `module.exports` is its default export, as Node says when an ES
 * module imports it; a compiled one's (`__esModule`) is its `exports.default`.
 */
export function entryOptions(entryModule: unknown, entryPath: string, absolutePath: string, fail: (message: string, location?: string) => EntryError): Record<string, unknown> {
  let exported = isObject(entryModule) ? entryModule.default : undefined;
  if (isObject(exported) && exported.__esModule === true) exported = exported.default;
  if (exported === undefined) return {};
  if (typeof exported === 'function' && 'listen' in exported && 'use' in exported) {
    throw fail(
      `entry ${entryPath} default-exports an Express application: export default the options you would pass to createServer ({ title, context, … }), from which tessera builds the server`,
    );
  }
  if (!isPlainObject(exported)) {
    throw fail(`entry ${entryPath} default-exports ${describe(exported)}; export default the server options, an object such as { title: 'Notes' }`);
  }
  const { checkServerOptionKeys } = require('../runtime/server/server-option-keys') as typeof import('../runtime/server/server-option-keys');
  try {
    checkServerOptionKeys(exported);
  } catch (error) {
    const key = Object.keys(exported).find((name) => (error as Error).message.startsWith(`${name} `));
    throw fail(`entry ${entryPath}: ${(error as Error).message}`, key === undefined ? undefined : locateKeyIn(absolutePath, [key], DEFAULT_EXPORT));
  }
  return exported;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (value instanceof Promise) return 'a promise (await it at top level instead)';
  if (typeof value === 'object') return `an instance of ${value.constructor?.name ?? 'a class'}`;
  return `a ${typeof value}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
