// What the server child of `tessera dev` does beyond `tessera start`: the development defaults, and
// telling the supervisor which source files the entry loaded, so it watches their folders.
import path from 'node:path';

/** The IPC message a dev child sends once its entry has loaded. */
export interface SourceFilesMessage {
  type: 'tessera:source-files';
  /** Absolute paths of the loaded application files (node_modules excluded). */
  files: string[];
}

const SOURCE_EXTENSIONS = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']);
const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

/** CONTRACT §7: dev mounts the reference page, unless the entry's options decide it themselves. */
export function withDevDefaults(options: Record<string, unknown>): Record<string, unknown> {
  return options.reference === undefined ? { ...options, reference: true } : options;
}

/** The application's own modules loaded so far: the entry and everything it imported outside node_modules. */
export function loadedSourceFiles(): string[] {
  return Object.keys(require.cache)
    .filter((file) => path.isAbsolute(file) && !file.includes(NODE_MODULES) && SOURCE_EXTENSIONS.has(path.extname(file)))
    .sort();
}

/** Sends the loaded files to the supervisor; a no-op without an IPC channel (a plain `tessera start --dev`). */
export function reportSourceFiles(): void {
  if (process.send === undefined) return;
  const message: SourceFilesMessage = { type: 'tessera:source-files', files: loadedSourceFiles() };
  process.send(message);
}

export function isSourceFilesMessage(message: unknown): message is SourceFilesMessage {
  const candidate = message as Partial<SourceFilesMessage> | null;
  return typeof candidate === 'object' && candidate !== null && candidate.type === 'tessera:source-files' && Array.isArray(candidate.files);
}

/** A dev child whose supervisor is gone (killed before it could stop the child) exits too, freeing the port. */
export function exitWithSupervisor(): void {
  if (process.send !== undefined) process.once('disconnect', () => process.exit(0));
}
