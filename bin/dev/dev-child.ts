// What the server child of `tessera dev` does beyond `tessera start`: it loads what every start needs and stands by
// until the supervisor says go (server-child.ts), records the ES modules the entry loads, applies the development
// defaults, and tells the supervisor which source files the entry loaded, so it watches their folders.
import path from 'node:path';
import { registerTypeScriptHooks } from '../typescript-hooks';
import { loadedSourceFiles, onNewEsModule, recordEsModules } from './loaded-modules';
import { START_MESSAGE, STANDBY_MESSAGE, type StandbyMessage } from './server-child';

/** The IPC message a dev child sends once its entry has loaded. */
export interface SourceFilesMessage {
  type: 'tessera:source-files';
  /** Absolute paths of the loaded application files (node_modules excluded). */
  files: string[];
}

/**
 * Registers tsx's hooks and, after them (so it sees each file before tsx compiles it), the hook that records ES
 * modules; loads the runtime; then, under a supervisor, says it stands by and resolves when told to start.
 */
export async function prepareDevChild(entry: string): Promise<void> {
  // tsx is the application's, found from its entry's folder (runtime/optional-package.ts).
  await registerTypeScriptHooks(path.resolve(entry));
  recordEsModules();
  require('../../runtime');
  if (process.send === undefined) return;
  exitWithSupervisor();
  await new Promise<void>((resolve) => {
    const onMessage = (message: unknown): void => {
      if (message !== START_MESSAGE) return;
      process.off('message', onMessage); // no listener left: the IPC channel no longer holds the process open
      resolve();
    };
    process.on('message', onMessage);
    process.send!({ type: STANDBY_MESSAGE, files: loadedSourceFiles() } satisfies StandbyMessage);
  });
}

/** CONTRACT §7: dev mounts the reference page, unless the entry's options decide it themselves. */
export function withDevDefaults(options: Record<string, unknown>): Record<string, unknown> {
  return options.reference === undefined ? { ...options, reference: true } : options;
}

/**
 * Sends the loaded files to the supervisor, and again whenever an ES module not seen before loads (an import()
 * made on a first request); a no-op without an IPC channel (a plain `tessera start --dev`).
 */
export function reportSourceFiles(): void {
  if (process.send === undefined) return;
  const send = (): void => {
    const message: SourceFilesMessage = { type: 'tessera:source-files', files: loadedSourceFiles() };
    process.send?.(message);
  };
  let pending: NodeJS.Immediate | null = null;
  onNewEsModule(() => {
    pending ??= setImmediate(() => {
      pending = null;
      send();
    });
  });
  send();
}

export function isSourceFilesMessage(message: unknown): message is SourceFilesMessage {
  const candidate = message as Partial<SourceFilesMessage> | null;
  return typeof candidate === 'object' && candidate !== null && candidate.type === 'tessera:source-files' && Array.isArray(candidate.files);
}

/** A dev child whose supervisor is gone (killed before it could stop the child) exits too, freeing the port. */
function exitWithSupervisor(): void {
  process.once('disconnect', () => process.exit(0));
}
