// A server program the test starts itself (HAProxy, PgBouncer, Prometheus) from a Debian package: spawned in the
// foreground with its output kept, ready once a probe passes, and stopped by the test alone (by its pid). Killed
// should the test process exit without stopping it.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

const READY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 10_000;
const POLL_MS = 50;
const OUTPUT_TAIL = 8000;

const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

export interface ServiceProcess {
  readonly child: ChildProcess;
  /** The end of what it printed (stdout and stderr). */
  output(): string;
  /** SIGTERM (SIGKILL when it does not go within 10 s); resolves once it exited. */
  stop(): Promise<void>;
}

/** The command's path, or a clear failure naming the Debian package that provides it (.ci/run installs them). */
export function requireProgram(command: string, debianPackage: string): string {
  for (const folder of ['/usr/sbin', '/usr/bin', '/sbin', '/bin']) {
    if (fs.existsSync(`${folder}/${command}`)) return `${folder}/${command}`;
  }
  throw new Error(`${command} is not installed: apt-get install ${debianPackage} (bash .ci/run installs it)`);
}

/** uid and gid of a system user, when running as root (PgBouncer refuses to run as root); nothing otherwise. */
export function systemAccount(user: string): { uid?: number; gid?: number } {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
  return { uid: id('-u'), gid: id('-g') };
}

export async function startServiceProcess(
  name: string,
  command: string,
  args: readonly string[],
  probe: () => Promise<unknown>,
  account: { uid?: number; gid?: number } = {},
): Promise<ServiceProcess> {
  const child = spawn(command, args, { ...account, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-OUTPUT_TAIL));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.once('exit', () => running.delete(child));
  const stop = async (): Promise<void> => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const late = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(late);
  };
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited while starting:\n${output}`);
    try {
      await probe();
      return { child, output: () => output, stop };
    } catch (error) {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`${name} was not ready within ${READY_TIMEOUT_MS} ms:\n${output}`, { cause: error });
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}
