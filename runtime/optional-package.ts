// The packages only some commands need (tsx to load TypeScript, esbuild to build, TypeScript to type-check) are the
// application's development tools, not Tessera's dependencies, so a production install goes without them (issue 28;
// npm keeps an installed optional peer in an --omit=dev install, so they are not declared as peers either). They are
// found from the application's folder first (any layout: pnpm's strict one too), then from Tessera's, and a command
// that needs a missing one fails with one line naming what to install.
import { createRequire } from 'node:module';
import { SetupError } from './errors';

export interface OptionalPackage {
  readonly name: string;
  /** What needs it, in the message's words: `a TypeScript entry`. */
  readonly neededBy: string;
}

export const TSX: OptionalPackage = { name: 'tsx', neededBy: 'a TypeScript entry (a built bundle, or a JavaScript entry, runs without it)' };
export const ESBUILD: OptionalPackage = { name: 'esbuild', neededBy: 'tessera build' };

/** Whether `error` says that `name` itself (not something inside it) could not be found. */
export function isMissingPackage(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') return false;
  const message = error instanceof Error ? error.message.split('\n')[0] : '';
  return [`'${name}'`, `'${name}/`, `"${name}"`, `"${name}/`].some((quoted) => message.includes(quoted));
}

/** The one-line error for a missing development tool. */
export function missingPackageError(optional: OptionalPackage): SetupError {
  return new SetupError(`${optional.neededBy} needs the package ${optional.name}, which is not installed: npm install --save-dev ${optional.name}`);
}

/**
 * Resolves `specifier` (`tsx/package.json`, `esbuild`) from the application's file `from`, else from Tessera's own
 * folder (a hoisted install, or this repository); the one-line error when the package is in neither.
 */
export function resolveFromApplication(optional: OptionalPackage, specifier: string, from: string): string {
  for (const resolve of [createRequire(from).resolve, require.resolve]) {
    try {
      return resolve(specifier);
    } catch (error) {
      if (!isMissingPackage(error, optional.name)) throw error;
    }
  }
  throw missingPackageError(optional);
}
