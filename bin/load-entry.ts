// Imports the user's entry module (which registers its services) and reads its default-exported
// server options. Every way this can fail becomes one EntryError line naming the entry.
import fs from 'node:fs';
import path from 'node:path';
import { resolveEntryRelativePaths } from './entry-relative-paths';

/** The entry is missing, throws while loading, or registers no service. */
export class EntryError extends Error {
  override name = 'EntryError';
}

export interface LoadedEntry {
  /** The entry's default export when it is a plain object (else `{}`), `documentation` made relative to the entry; handed to createServer. */
  options: Record<string, unknown>;
}

/**
 * Loads `entryPath` (relative to process.cwd()) with a plain require: bin/tessera.js has registered
 * tsx's CommonJS hook, so a TypeScript entry needs no compile step.
 */
export function loadEntry(entryPath: string): LoadedEntry {
  const absolutePath = path.resolve(process.cwd(), entryPath);
  if (!fs.existsSync(absolutePath)) throw new EntryError(`entry not found: ${entryPath}`);

  let entryModule: unknown;
  try {
    entryModule = require(absolutePath);
  } catch (error) {
    throw new EntryError(`entry ${entryPath} failed to load: ${firstLine(error)}`, { cause: error });
  }

  // Loaded only now so that `--help` and PORT errors answer without loading the runtime and its drivers.
  const { listServices } = require('../runtime') as typeof import('../runtime');
  if (listServices().length === 0) {
    throw new EntryError(`entry ${entryPath} registered no service: call defineService(...) in it`);
  }
  return { options: resolveEntryRelativePaths(defaultOptions(entryModule), path.dirname(absolutePath)) };
}

function defaultOptions(entryModule: unknown): Record<string, unknown> {
  const exported = isObject(entryModule) ? entryModule.default : undefined;
  return isPlainObject(exported) ? exported : {};
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (!isObject(value)) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

// The CLI prints one line; the full message and stack stay on `cause` for DEBUG=tessera.
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n', 1)[0].trim() || (error instanceof Error ? error.name : 'unknown error');
}
