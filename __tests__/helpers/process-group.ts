// Commands that start other processes (`npm start` → sh → node), run as users run them: each in its own process
// group, so that stopping it stops everything it started. For the tests of the projects `tessera init` writes.
import { spawn, type ChildProcess } from 'node:child_process';
import type { CliResult } from './spawn-cli';

const STEP_TIMEOUT_MS = 120_000;

/** Runs `command` to its end, stdin closed (no terminal, as in CI); rejects after `timeoutMs`. */
export function runGroup(command: string, args: string[], cwd: string, env: Record<string, string> = {}, timeoutMs = STEP_TIMEOUT_MS): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const timer = setTimeout(() => {
      process.kill(-child.pid!, 'SIGKILL');
      reject(new Error(`${command} ${args.join(' ')} did not exit within ${timeoutMs} ms:\n${stdout}\n${stderr}`));
    }, timeoutMs);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts `command` and resolves once it prints `Tessera listening on <url>`; stop() ends its whole group. */
export function startGroup(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<{ url: string; stop(): Promise<void>; output(): string }> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(command, args, { cwd, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const stop = async (): Promise<void> => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((done) => child.once('exit', done));
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    };
    const timer = setTimeout(() => void stop().then(() => reject(new Error(`${command} ${args.join(' ')} did not listen:\n${output}`))), STEP_TIMEOUT_MS);
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      const match = /Tessera listening on (http:\/\/\S+)/.exec(output);
      if (match !== null) {
        clearTimeout(timer);
        resolve({ url: match[1], stop, output: () => output });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(' ')} exited (${code}) before listening:\n${output}`));
    });
  });
}
