// The restart loop of `tessera dev`: runs `tessera start <entry> --dev` as a child, watches the folders of
// the files it loaded, restarts it on a change (one line per reload), and waits out a child that fails.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { isSourceFilesMessage } from './dev-child';
import { watchFolders, type FolderWatch } from './watch-folders';

const BIN = path.join(__dirname, '..', 'tessera.js');

export interface DevSession {
  /** The entry as typed (relative to process.cwd()). */
  readonly entry: string;
  /** Resolved by the command: `--port`, then PORT, then 4000 (spec §8.1). */
  readonly port: number;
  /** `--host`, passed on to every child. */
  readonly host?: string;
  /** `--no-compiler` (false), passed on to every child. */
  readonly compiler?: boolean;
}

function say(line: string): void {
  process.stdout.write(`tessera dev: ${line}\n`);
}

export function superviseDev(session: DevSession): void {
  const entryFolder = path.dirname(path.resolve(process.cwd(), session.entry));
  let child: ChildProcess | null = null;
  let watch: FolderWatch | null = null;
  let isStopping = false;
  let isWaitingForExit = false;

  const watchAround = (files: readonly string[]): void => {
    const folders = new Set([entryFolder, ...files.map((file) => path.dirname(file))]);
    if (watch !== null && watch.folders.length === folders.size && watch.folders.every((folder) => folders.has(folder))) return;
    watch?.close();
    watch = watchFolders(folders, restart);
  };

  const startChild = (): void => {
    const args = [...process.execArgv, BIN, 'start', session.entry, '--port', String(session.port), '--dev'];
    if (session.host !== undefined) args.push('--host', session.host);
    if (session.compiler === false) args.push('--no-compiler');
    const started = spawn(process.execPath, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    child = started;
    started.on('message', (message) => {
      if (isSourceFilesMessage(message)) watchAround(message.files);
    });
    started.once('exit', (code, signal) => {
      if (child !== started) return; // replaced by a restart
      child = null;
      if (isStopping) process.exit(0);
      say(`the server stopped (${signal ?? `exit code ${code}`}); waiting for a change to restart`);
    });
  };

  function restart(file: string): void {
    // A start already waiting for the old server to exit loads the files as they are by then.
    if (isStopping || isWaitingForExit) return;
    say(`${path.relative(process.cwd(), file).split(path.sep).join('/')} changed, restarting`);
    const previous = child;
    child = null;
    if (previous === null || previous.exitCode !== null || previous.signalCode !== null) return startChild();
    // The new server binds the same port: start it once the old one has let go.
    isWaitingForExit = true;
    previous.once('exit', () => {
      isWaitingForExit = false;
      if (isStopping) process.exit(0);
      startChild();
    });
    previous.kill('SIGTERM');
  }

  const stop = (): void => {
    isStopping = true;
    watch?.close();
    if (child === null) {
      // An old server may still be exiting after a restart; its exit ends dev.
      if (!isWaitingForExit) process.exit(0);
      return;
    }
    child.kill('SIGTERM');
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  watchAround([]);
  startChild();
}
