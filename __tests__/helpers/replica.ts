// A bundle replica of the scale-out tests: `node dist/server.js` on a port of its own, which the test can stop
// (SIGTERM, drains), kill (SIGKILL) and start again on the same port, with everything it logged kept.
import type { ChildProcess } from 'node:child_process';
import { startBundle } from './bundles';
import type { RunningCli } from './spawn-cli';

export interface ReplicaExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

function exitOf(child: ChildProcess): Promise<ReplicaExit> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

export class Replica {
  #running: RunningCli | null = null;
  /** Everything every run of it printed on stderr (error log lines). */
  stderr = '';

  constructor(
    readonly name: string,
    readonly port: number,
    private readonly out: string,
    private readonly env: Record<string, string>,
  ) {}

  async start(): Promise<void> {
    if (this.#running !== null) throw new Error(`${this.name} is running`);
    const running = await startBundle(this.out, { ...this.env, PORT: String(this.port), TESSERA_HOST: '127.0.0.1' });
    running.child.stderr!.on('data', (chunk: Buffer | string) => (this.stderr += chunk.toString()));
    this.#running = running;
  }

  /** Sends `signal` and resolves with how the process ended. */
  async signal(signal: 'SIGTERM' | 'SIGKILL'): Promise<ReplicaExit> {
    const running = this.#running;
    if (running === null) throw new Error(`${this.name} is not running`);
    running.child.kill(signal);
    const exit = await exitOf(running.child);
    this.#running = null;
    return exit;
  }

  /** What it printed on stdout in its current run. */
  stdout(): string {
    return this.#running?.stdout() ?? '';
  }

  async stop(): Promise<void> {
    const running = this.#running;
    this.#running = null;
    if (running !== null) await running.stop();
  }
}
