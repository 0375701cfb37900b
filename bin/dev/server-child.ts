// A server child of `tessera dev`, spawned ahead of time: it loads Node, tsx and Tessera's runtime (most of a
// start), then waits for the supervisor's word before it loads the entry, so a restart after an edit costs only
// the entry's own load. The supervisor keeps one such standby beside the child that serves.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const BIN = path.join(__dirname, '..', 'tessera.js');

/** Child → supervisor: node, tsx and the runtime are loaded; the entry is not. */
export const STANDBY_MESSAGE = 'tessera:standby';
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
  #isStandingBy = false;
  #isWanted = false;

  /** `onStandBy` runs once the child has loaded what it can before the entry. */
  constructor(args: ServerChildArgs, onStandBy: () => void = () => undefined) {
    const argv = [...process.execArgv, BIN, 'start', args.entry, '--port', String(args.port), '--dev'];
    if (args.host !== undefined) argv.push('--host', args.host);
    if (args.compiler === false) argv.push('--no-compiler');
    this.process = spawn(process.execPath, argv, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.process.on('message', (message) => {
      if (message !== STANDBY_MESSAGE) return;
      this.#isStandingBy = true;
      if (this.#isWanted) this.process.send(START_MESSAGE);
      else onStandBy();
    });
    // An IPC send to a child that died meanwhile: its exit is reported by the supervisor's exit listener.
    this.process.on('error', () => undefined);
  }

  /** Tells the child to load the entry and serve, now or as soon as it stands by. */
  start(): void {
    this.#isWanted = true;
    if (this.#isStandingBy) this.process.send(START_MESSAGE);
  }

  get hasExited(): boolean {
    return this.process.exitCode !== null || this.process.signalCode !== null;
  }
}
