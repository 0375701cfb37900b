// Turns whatever an entry threw while loading into a reason and a `file:line:column` location, so the CLI can
// say in two lines what went wrong and where: esbuild's transform errors (tsx), Node's syntax errors, and
// errors thrown by the entry's top-level code (whose stacks tsx maps back to the TypeScript source).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tesseraPackage } from '../runtime/package-info';

export interface EntryFailure {
  /** What went wrong, one line. */
  readonly reason: string;
  /** `file:line:column` relative to the working directory, when one of the application's files is to blame. */
  readonly location?: string;
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
  if (transform !== null) return { reason: transform[4].trim(), location: locate(transform[1], transform[2], transform[3]) };

  const reason = firstLine(message) || (error instanceof Error ? error.name : 'unknown error');
  const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack.split('\n') : [];
  const head = error instanceof SyntaxError && stack.length > 0 ? SYNTAX_ERROR_HEAD.exec(stack[0]) : null;
  if (head !== null && isApplicationFile(head[1])) return { reason: `${error instanceof Error ? error.name : 'SyntaxError'}: ${reason}`, location: locate(head[1], head[2]) };

  for (const line of stack) {
    const frame = STACK_FRAME.exec(line);
    if (frame !== null && isApplicationFile(frame[1])) return { reason, location: locate(frame[1], frame[2], frame[3]) };
  }
  return { reason };
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0].trim();
}

/** Tessera's own code (source or compiled): a setup error thrown there is the caller's fault, one frame up. */
const TESSERA_FOLDERS = ['runtime', 'generator', 'bin', 'lib'].map((folder) => path.join(tesseraPackage().root, folder) + path.sep);

/** A file of the application: not Node's own, not a package's, not Tessera's. */
function isApplicationFile(file: string): boolean {
  if (file.startsWith('node:') || file.includes(`${path.sep}node_modules${path.sep}`)) return false;
  const absolute = file.startsWith('file://') ? fileURLToPath(file) : file;
  return path.isAbsolute(absolute) && !TESSERA_FOLDERS.some((folder) => absolute.startsWith(folder));
}

function locate(file: string, line: string, column?: string): string {
  const absolute = file.startsWith('file://') ? fileURLToPath(file) : file;
  const relative = path.relative(process.cwd(), absolute).split(path.sep).join('/');
  return column === undefined ? `${relative}:${line}` : `${relative}:${line}:${column}`;
}
