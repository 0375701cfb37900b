// The restart loop of `tessera dev`: runs `tessera start <entry> --dev` as a child, watches the folders of
// the files it loaded, restarts it on a change (one line per reload), and waits out a child that fails.
// The next child is spawned ahead of time (server-child.ts), so a restart does not wait for Node to boot.
import path from 'node:path';
import { isDebugEnabled } from '../exit-with-error';
import { isSourceFilesMessage } from './dev-child';
import { ServerChild, type ServerChildArgs } from './server-child';
import { configFiles } from './config-files';
import { isSourceFile, watchFolders, type FolderWatch } from './watch-folders';

export interface DevSession extends ServerChildArgs {
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

/** What dev does behind the scenes, said only under DEBUG=tessera. */
function debug(line: string): void {
  if (isDebugEnabled(process.env.DEBUG)) say(line);
}

function relative(file: string): string {
  return path.relative(process.cwd(), file).split(path.sep).join('/') || '.';
}

export function superviseDev(session: DevSession): void {
  const entryFolder = path.dirname(path.resolve(process.cwd(), session.entry));
  let child: ServerChild | null = null;
  let standby: ServerChild | null = null;
  let watch: FolderWatch | null = null;
  let isStopping = false;
  let isWaitingForExit = false;
  /** What the last child that stood by loaded before its entry. */
  let lastPreloaded: ReadonlySet<string> | null = null;
  /** The tsconfig files and package.json every child reads as it stands by: a change to one makes a standby stale. */
  let configs = configFiles(entryFolder);
  /** The source files of the last child, whose folders are watched with the configuration files'. */
  let sourceFiles: readonly string[] = [];
  const isWatched = (file: string): boolean => isSourceFile(file) || configs.has(file);

  const watchAround = (files: readonly string[]): void => {
    sourceFiles = files;
    const folders = new Set([entryFolder, ...[...files, ...configs].map((file) => path.dirname(file))]);
    if (watch !== null && watch.folders.length === folders.size && watch.folders.every((folder) => folders.has(folder))) return;
    watch?.close();
    watch = watchFolders(folders, restart, isWatched);
    debug(`watching ${watch.folders.map(relative).join(', ')}`);
  };

  /** Spawns the next child once the current one has started or failed, so the two do not compete for the CPU. */
  const prepareStandby = (): void => {
    if (isStopping || standby !== null) return;
    const prepared = new ServerChild(session, () => debug('the next server stands by'));
    standby = prepared;
    prepared.process.once('exit', () => {
      if (standby === prepared) standby = null;
    });
  };

  const startChild = (): void => {
    const started = standby ?? new ServerChild(session);
    standby = null;
    child = started;
    started.start();
    started.process.on('message', (message) => {
      if (!isSourceFilesMessage(message)) return;
      lastPreloaded = started.preloaded;
      watchAround(message.files);
      prepareStandby();
    });
    started.process.once('exit', (code, signal) => {
      if (child !== started) return; // replaced by a restart
      child = null;
      if (isStopping) process.exit(0);
      say(`the server stopped (${signal ?? `exit code ${code}`}); waiting for a change to restart`);
      prepareStandby();
    });
  };

  function restart(changed: readonly string[]): void {
    // A start already waiting for the old server to exit loads the files as they are by then.
    if (isStopping || isWaitingForExit) return;
    say(`${relative(changed[0])} changed, restarting`);
    // A standby loaded Tessera's runtime already: if that changed (a checkout of Tessera, linked in), it is stale.
    // One still loading is judged by what an earlier child loaded before its entry: the same files. Its tsx read the
    // tsconfig too (and Node may have read package.json), so a restart after an edit of either starts a child that
    // reads it, as `tessera start` would.
    const preloaded = standby?.preloaded ?? lastPreloaded;
    const isConfigChange = changed.some((file) => configs.has(file));
    if (isConfigChange) {
      configs = configFiles(entryFolder); // a tsconfig's `extends` may name other files now
      watchAround(sourceFiles);
    }
    if (standby !== null && (standby.hasExited || isConfigChange || changed.some((file) => preloaded?.has(file) === true))) {
      debug('the next server had loaded what changed: starting another');
      standby.process.kill('SIGTERM');
      standby = null;
    }
    const previous = child;
    child = null;
    if (previous === null || previous.hasExited) return startChild();
    // The new server binds the same port: start it once the old one has let go.
    isWaitingForExit = true;
    previous.process.once('exit', () => {
      isWaitingForExit = false;
      if (isStopping) process.exit(0);
      startChild();
    });
    previous.process.kill('SIGTERM');
  }

  const stop = (): void => {
    isStopping = true;
    watch?.close();
    standby?.process.kill('SIGTERM');
    if (child === null) {
      // An old server may still be exiting after a restart; its exit ends dev.
      if (!isWaitingForExit) process.exit(0);
      return;
    }
    child.process.kill('SIGTERM');
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  watchAround([]);
  startChild();
}
