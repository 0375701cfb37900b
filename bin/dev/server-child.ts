// A server child of `tessera dev`, spawned ahead of time: it loads Node, tsx and Tessera's runtime (most of a
// start), then waits for the supervisor's word before it loads the entry, so a restart after an edit costs only
// the entry's own load. The supervisor keeps one such standby beside the child that serves.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const BIN = path.join(__dirname, '..', 'tessera.js');

/** Child → supervisor: node, tsx and the runtime are loaded (`files`: those outside node_modules); the entry is not. */
export const STANDBY_MESSAGE = 'tessera:standby';

export interface StandbyMessage {
  type: typeof STANDBY_MESSAGE;
  files: string[];
}
/** Supervisor → child: load the entry and serve. */
export const START_MESSAGE = 'tessera:start';

export interface ServerChildArgs {
  readonly entry: string;
  readonly port: number;
  readonly host?: string;
  readonly compiler?: boolean;
}

export class ServerChild {
  readonly process: ChildProcess;
  #preloaded: ReadonlySet<string> | null = null;
  #isWanted = false;

  /** `onStandBy` runs once the child has loaded what it can before the entry. */
  constructor(args: ServerChildArgs, onStandBy: () => void = () => undefined) {
    const argv = [...process.execArgv, BIN, 'start', args.entry, '--port', String(args.port), '--dev'];
    if (args.host !== undefined) argv.push('--host', args.host);
    if (args.compiler === false) argv.push('--no-compiler');
    this.process = spawn(process.execPath, argv, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.process.on('message', (message: Partial<StandbyMessage> | null) => {
      if (message?.type !== STANDBY_MESSAGE || !Array.isArray(message.files)) return;
      this.#preloaded = new Set(message.files);
      if (this.#isWanted) this.process.send(START_MESSAGE);
      else onStandBy();
    });
    // An IPC send to a child that died meanwhile: its exit is reported by the supervisor's exit listener.
    this.process.on('error', () => undefined);
  }

  /** Tells the child to load the entry and serve, now or as soon as it stands by. */
  start(): void {
    this.#isWanted = true;
    if (this.#preloaded !== null) this.process.send(START_MESSAGE);
  }

  /**
   * The files outside node_modules the child loaded before the entry, once it stands by (null before): Tessera's own
   * files when Tessera is not under node_modules (a checkout of it, linked in). A change to one makes a standby stale.
   */
  get preloaded(): ReadonlySet<string> | null {
    return this.#preloaded;
  }

  get hasExited(): boolean {
    return this.process.exitCode !== null || this.process.signalCode !== null;
  }
}
