// A Redis server of the test's own, for tests that stop and restart Redis: `redis-server` on a free loopback port,
// without persistence, started and stopped by this file alone. The shared Redis (127.0.0.1:6379) is never touched.
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from './free-port';

const READY_TIMEOUT_MS = 20_000;
const READY_LINE = /Ready to accept connections/;

/** Every server this process started, killed should the test process exit without stopping them. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export class PrivateRedisServer {
  #child: ChildProcess | null = null;
  port = 0;

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts it (on the same port after a stop); resolves once it accepts connections. */
  async start(): Promise<this> {
    if (this.port === 0) this.port = await freePort();
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    running.add(child);
    this.#child = child;
    let output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start within ${READY_TIMEOUT_MS} ms:\n${output}`)), READY_TIMEOUT_MS);
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
        output += chunk;
        if (READY_LINE.test(output)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`));
      });
    });
    child.removeAllListeners('exit');
    return this;
  }

  /** Stops it as an operator's shutdown does; resolves once it exited. */
  async stop(): Promise<void> {
    const child = this.#child;
    if (child === null) return;
    this.#child = null;
    if (child.exitCode === null && child.signalCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    }
    running.delete(child);
  }
}
