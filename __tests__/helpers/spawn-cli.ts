// Runs `node bin/tessera.js …`, or any node command line (a bundle's server.js), as a child process from
// the repository root, for CLI tests. Every child is bounded: runs time out, started ones hand back stop().
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const REPO_ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(REPO_ROOT, 'bin/tessera.js');
/** The CLI as an installed package runs it: compiled, from lib/ (the test suite's global set-up builds it). */
export const PACKAGED_BIN = path.join(REPO_ROOT, 'lib/bin/tessera.js');
const DEFAULT_TIMEOUT_MS = 20_000;
const LISTENING_LINE = /^Tessera listening on (http:\/\/\S+)[^\n]*\r?\n/m;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunningCli {
  url: string;
  child: ChildProcess;
  /** What the process has printed on stdout so far. */
  stdout(): string;
  /** Sends SIGTERM (SIGKILL after 5 s) and resolves once the process has exited. */
  stop(): Promise<void>;
}

/** Env for the child: this process's env without PORT and DEBUG (so a developer's shell can't leak in), then `env`; undefined removes a key. */
function childEnv(env: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...process.env, PORT: undefined, DEBUG: undefined, ...env };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  return merged;
}

/** `node <nodeArgs>`, by default from the repository root (so tsx finds its tsconfig, which maps `tessera`). */
function spawnNode(nodeArgs: readonly string[], env: Record<string, string | undefined>, cwd = REPO_ROOT): ChildProcess {
  return spawn(process.execPath, nodeArgs, {
    cwd,
    env: childEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/** Runs the CLI to completion and resolves with its exit code and output; rejects after `timeoutMs`. */
export function spawnCli(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<CliResult> {
  return runNode([BIN, ...args], env, timeoutMs);
}

/** Starts the CLI and resolves once it prints `Tessera listening on <url>`; rejects on early exit or after `timeoutMs`. */
export function startCli(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<RunningCli> {
  return startNode([BIN, ...args], env, timeoutMs);
}

/** spawnCli for any node command line (a built bundle's `server.js`, with node flags). */
export function runNode(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = DEFAULT_TIMEOUT_MS,
  cwd = REPO_ROOT,
): Promise<CliResult> {
  return collect(spawnNode(args, env, cwd), `node ${args.join(' ')}`, timeoutMs, null);
}

/**
 * Runs the CLI until its stdout matches `pattern` (a line of a process that keeps running, such as `tessera dev`
 * after its server stopped), then stops it (SIGTERM) and resolves with what it printed; rejects after `timeoutMs`.
 */
export function runCliUntil(
  args: readonly string[],
  pattern: RegExp,
  env: Record<string, string | undefined> = {},
  timeoutMs = DEFAULT_TIMEOUT_MS,
): Promise<CliResult> {
  return collect(spawnNode([BIN, ...args], env), `tessera ${args.join(' ')}`, timeoutMs, pattern);
}

/** What `child` prints until it exits (sent SIGTERM once stdout matches `stopWhen`); rejects after `timeoutMs`. */
function collect(child: ChildProcess, label: string, timeoutMs: number, stopWhen: RegExp | null): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stopWhen !== null && stopWhen.test(stdout)) child.kill('SIGTERM');
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const awaited = stopWhen === null ? 'exit' : `print ${stopWhen}`;
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${label} did not ${awaited} within ${timeoutMs} ms; stdout:\n${stdout}\nstderr:\n${stderr}`));
    }, timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** startCli for any node command line. */
export function startNode(
  args: readonly string[],
  env: Record<string, string | undefined> = {},
  timeoutMs = DEFAULT_TIMEOUT_MS,
  cwd = REPO_ROOT,
): Promise<RunningCli> {
  return new Promise((resolve, reject) => {
    const child = spawnNode(args, env, cwd);
    const exited = new Promise<void>((resolveExit) => child.once('exit', () => resolveExit()));
    let stdout = '';
    let stderr = '';
    let isSettled = false;

    const stop = async (): Promise<void> => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        const forceKill = setTimeout(() => child.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(forceKill);
      }
    };
    const fail = (reason: string): void => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      void stop();
      reject(new Error(`node ${args.join(' ')} ${reason}; stderr:\n${stderr}`));
    };

    const timer = setTimeout(() => fail(`did not print its listening line within ${timeoutMs} ms`), timeoutMs);
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = LISTENING_LINE.exec(stdout);
      if (match === null || isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      resolve({ url: match[1], child, stop, stdout: () => stdout });
    });
    child.once('error', (error) => fail(`could not be spawned: ${error.message}`));
    child.once('exit', (code, signal) => fail(`exited (code ${code}, signal ${signal}) before listening`));
  });
}
