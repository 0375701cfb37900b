// Turns whatever an entry threw while loading into a reason and a `file:line:column` location, so the CLI can
// say in two lines what went wrong and where: esbuild's transform errors (tsx), Node's syntax errors, and
// errors thrown by the entry's top-level code (whose stacks tsx maps back to the TypeScript source); a setup
// error points at the key it names (`fields.titel`), found in the source near the call that threw.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tesseraPackage } from '../runtime/package-info';
import { locateKey, setupErrorKeyPath, type Near } from './source-keys';

export interface EntryFailure {
  /** What went wrong, one line. */
  readonly reason: string;
  /** `file:line:column` relative to the working directory, when one of the application's files is to blame. */
  readonly location?: string;
  /** The source does not parse (esbuild's or Node's verdict): `tessera build` says so rather than counting tsc's errors. */
  readonly isSyntaxError?: boolean;
}

/** esbuild's `Transform failed with 1 error:\n/abs/app.ts:3:7: ERROR: Expected ";" but found "x"`. */
const TRANSFORM_ERROR = /^(.+?):(\d+):(\d+): ERROR: (.+)$/m;
/** The first line of a V8 SyntaxError stack for a module: `file:///abs/app.mjs:3`. */
const SYNTAX_ERROR_HEAD = /^(.+?):(\d+)\r?$/;
/** A stack frame: `    at fn (file:///abs/app.ts:5:9)` or `    at /abs/app.ts:5:9`. */
const STACK_FRAME = /^\s+at (?:.*? \()?(.+?):(\d+):(\d+)\)?$/;

export function describeEntryFailure(error: unknown): EntryFailure {
  const message = error instanceof Error ? error.message : String(error);
  const transform = TRANSFORM_ERROR.exec(message);
  // esbuild counts columns from 0; editors and V8's stacks from 1.
  if (transform !== null) return { reason: `SyntaxError: ${transform[4].trim()}`, location: locate(transform[1], transform[2], String(Number(transform[3]) + 1)), isSyntaxError: true };

  const reason = firstLine(message) || (error instanceof Error ? error.name : 'unknown error');
  const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack.split('\n') : [];
  const head = error instanceof SyntaxError && stack.length > 0 ? SYNTAX_ERROR_HEAD.exec(stack[0]) : null;
  if (head !== null && isApplicationFile(head[1])) return { reason: `SyntaxError: ${reason}`, location: locate(head[1], head[2]), isSyntaxError: true };

  for (const line of stack) {
    const frame = STACK_FRAME.exec(line);
    if (frame === null || !isApplicationFile(frame[1])) continue;
    const keyPath = error instanceof Error && error.name === 'SetupError' ? setupErrorKeyPath(message) : undefined;
    const key = keyPath === undefined ? undefined : locateKeyIn(absolutePath(frame[1]), keyPath, { line: Number(frame[2]), column: Number(frame[3]) });
    return { reason, location: key ?? locate(frame[1], frame[2], frame[3]) };
  }
  return { reason };
}

/** The `file:line:column` (relative to the working directory) where a key of `keyPath` is written in `file`, if found. */
export function locateKeyIn(file: string, keyPath: readonly string[], near?: Near): string | undefined {
  const key = locateKey(file, keyPath, near);
  return key === undefined ? undefined : locate(file, String(key.line), String(key.column));
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0].trim();
}

/** Tessera's own code (source or compiled): a setup error thrown there is the caller's fault, one frame up. */
const TESSERA_FOLDERS = ['runtime', 'generator', 'bin', 'lib'].map((folder) => path.join(tesseraPackage().root, folder) + path.sep);

/** A file of the application: not Node's own, not a package's, not Tessera's. */
function isApplicationFile(file: string): boolean {
  if (file.startsWith('node:') || file.includes(`${path.sep}node_modules${path.sep}`)) return false;
  const absolute = absolutePath(file);
  return path.isAbsolute(absolute) && !TESSERA_FOLDERS.some((folder) => absolute.startsWith(folder));
}

function absolutePath(file: string): string {
  return file.startsWith('file://') ? fileURLToPath(file) : file;
}

function locate(file: string, line: string, column?: string): string {
  const absolute = absolutePath(file);
  const relative = path.relative(process.cwd(), absolute).split(path.sep).join('/');
  return column === undefined ? `${relative}:${line}` : `${relative}:${line}:${column}`;
}
