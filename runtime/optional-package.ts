// The packages only some commands need (tsx to load TypeScript, esbuild to build, marked and @mdx-js/mdx for a
// documentation folder) are optional peer dependencies, so a production install goes without them (issue 28): a
// command that needs a missing one fails with one line naming what to install.
import { SetupError } from './errors';

export interface OptionalPackage {
  readonly name: string;
  /** What needs it, in the message's words: `a TypeScript entry`. */
  readonly neededBy: string;
  /** A development tool (`npm install --save-dev`) rather than something the server runs with. */
  readonly isDevTool: boolean;
}

export const TSX: OptionalPackage = { name: 'tsx', neededBy: 'a TypeScript entry (a built bundle, or a JavaScript entry, runs without it)', isDevTool: true };
export const ESBUILD: OptionalPackage = { name: 'esbuild', neededBy: 'tessera build', isDevTool: true };

/** Whether `error` says that `name` itself (not something inside it) could not be found. */
export function isMissingPackage(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'MODULE_NOT_FOUND' && code !== 'ERR_MODULE_NOT_FOUND') return false;
  const message = error instanceof Error ? error.message.split('\n')[0] : '';
  return [`'${name}'`, `'${name}/`, `"${name}"`, `"${name}/`].some((quoted) => message.includes(quoted));
}

/** `error` as it should reach the user: the one-line SetupError when it is the optional package's absence. */
export function optionalPackageFailure(optional: OptionalPackage, error: unknown): unknown {
  if (!isMissingPackage(error, optional.name)) return error;
  const install = optional.isDevTool ? `npm install --save-dev ${optional.name}` : `npm install ${optional.name}`;
  return new SetupError(`${optional.neededBy} needs the package ${optional.name}, which is not installed: ${install}`);
}
