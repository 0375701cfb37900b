// Start-up failures that are not the database's (issue 28): a missing secret, an invalid dashboard option, a
// dashboard beyond loopback without auth, a port that is taken. `tessera start`, `tessera dev` and a built
// bundle's server.js each stop with one `tessera: …` line naming the cause (and how to choose another port),
// exit code 1, no stack; DEBUG=tessera adds the stack.
import net from 'node:net';
import path from 'node:path';
import { build, runBundle, temporaryFolder } from '../helpers/bundles';
import { freePort } from '../helpers/free-port';
import { runCliUntil, spawnCli, type CliResult } from '../helpers/spawn-cli';

const ENTRY = '__tests__/bin/entries/start-up-app.ts';
const SECRET = 'START_UP_TEST_API_KEY';
const CLI_TIMEOUT_MS = 60_000;
/** What `tessera dev` prints once its server child has stopped; it keeps watching after that. */
const DEV_STOPPED = /tessera dev: the server stopped \(exit code 1\); waiting for a change to restart/;

type Mode = 'start' | 'dev' | 'bundle';

/** A port something else listens on, for as long as the test runs. */
async function takePort(host?: string): Promise<{ port: number; release(): Promise<void> }> {
  const port = await freePort();
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(port, host, () => resolve()));
  return { port, release: () => new Promise((resolve) => taken.close(() => resolve())) };
}

describe('a start-up failure that is not the database', () => {
  const folder = temporaryFolder('start-up-failures');
  const out = (): string => path.join(folder.path, 'dist');

  beforeAll(async () => {
    await build(ENTRY, out(), ['--no-typecheck']);
  }, 120_000);

  /** Starts the entry in `mode` on `port` with `env`, and answers what it printed once it has given up. */
  async function startIn(mode: Mode, port: number, env: Record<string, string | undefined>): Promise<CliResult> {
    const environment = { [SECRET]: undefined, HISTORY_FILE: path.join(folder.path, 'history.db'), ...env };
    if (mode === 'bundle') return runBundle(out(), { ...environment, PORT: String(port) });
    if (mode === 'start') return spawnCli(['start', ENTRY, '--port', String(port)], environment, CLI_TIMEOUT_MS);
    return runCliUntil(['dev', ENTRY, '--port', String(port)], DEV_STOPPED, environment, CLI_TIMEOUT_MS);
  }

  function expectOneLine(result: CliResult, mode: Mode, line: string): void {
    expect(result.stderr.split('\n').filter((each) => each !== '')).toEqual([line]);
    if (mode === 'dev') {
      // dev reports its child's end and waits for a change (it was stopped by the test).
      expect(result.stdout).toMatch(DEV_STOPPED);
    } else {
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
    }
  }

  const MODES: Mode[] = ['start', 'dev', 'bundle'];

  it.each(MODES)('names a missing secret (%s)', async (mode) => {
    const result = await startIn(mode, await freePort(), { REQUIRED_SECRET: SECRET });
    expectOneLine(result, mode, `tessera: secret ${SECRET} is not set`);
  }, CLI_TIMEOUT_MS);

  it.each(MODES)('names an invalid dashboard option: historyDays 0 (%s)', async (mode) => {
    const result = await startIn(mode, await freePort(), { DASHBOARD_PORT: String(await freePort()), HISTORY_DAYS: '0' });
    expectOneLine(result, mode, 'tessera: dashboard.historyDays must be a whole number of days, 1 or more');
  }, CLI_TIMEOUT_MS);

  it.each(MODES)('refuses a dashboard beyond loopback without auth (%s)', async (mode) => {
    const result = await startIn(mode, await freePort(), { DASHBOARD_PORT: String(await freePort()), DASHBOARD_HOST: '0.0.0.0' });
    expectOneLine(result, mode, 'tessera: dashboard: host "0.0.0.0" is beyond loopback, so dashboard.auth (a token or authorize) is required; or bind it to 127.0.0.1');
  }, CLI_TIMEOUT_MS);

  it.each(MODES)('names a port that is taken and how to choose another (%s)', async (mode) => {
    const taken = await takePort();
    try {
      const result = await startIn(mode, taken.port, {});
      const sources = mode === 'bundle' ? 'PORT' : '--port or PORT';
      expectOneLine(result, mode, `tessera: port ${taken.port} is already in use: stop what holds it, or choose another port with ${sources}`);
    } finally {
      await taken.release();
    }
  }, CLI_TIMEOUT_MS);

  it.each(MODES)("names the dashboard's port when it is taken, and its option (%s)", async (mode) => {
    const taken = await takePort('127.0.0.1');
    try {
      const result = await startIn(mode, await freePort(), { DASHBOARD_PORT: String(taken.port) });
      expectOneLine(result, mode, `tessera: dashboard: 127.0.0.1:${taken.port} is already in use: stop what holds it, or choose another port with dashboard.port (0 takes any free one)`);
    } finally {
      await taken.release();
    }
  }, CLI_TIMEOUT_MS);

  it.each([
    ['start', ['--workers', '2'], {}],
    ['bundle', [], { TESSERA_WORKERS: '2' }],
  ] as const)('stops a start whose workers fail before serving, naming the cause, rather than restarting them (%s)', async (mode, flags, workers) => {
    const env = { [SECRET]: undefined, REQUIRED_SECRET: SECRET, ...workers };
    const port = String(await freePort());
    const result = mode === 'bundle' ? await runBundle(out(), { ...env, PORT: port }) : await spawnCli(['start', ENTRY, '--port', port, ...flags], env, CLI_TIMEOUT_MS);
    expect(result.code).toBe(1);
    // Each worker that got that far says it; none is restarted.
    const lines = result.stderr.split('\n').filter((each) => each !== '');
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(new Set(lines)).toEqual(new Set([`tessera: secret ${SECRET} is not set`]));
    expect(result.stdout).toBe('');
  }, CLI_TIMEOUT_MS);

  it('names an entry whose top-level await never settles, and exits 1 (Node alone would exit 0 without a word)', async () => {
    const entry = '__tests__/bin/entries/never-loads.mjs';
    const result = await spawnCli(['start', entry, '--port', String(await freePort())], {}, CLI_TIMEOUT_MS);
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n').filter((each) => each !== '')).toEqual([
      `tessera: entry ${entry} never finished loading: a top-level await in it (or in a module it imports) never settled`,
    ]);
  }, CLI_TIMEOUT_MS);

  it("prints the stack under DEBUG=tessera only (a bundle's missing secret)", async () => {
    const result = await startIn('bundle', await freePort(), { REQUIRED_SECRET: SECRET, DEBUG: 'tessera' });
    expect(result.code).toBe(1);
    expect(result.stderr.split('\n')[0]).toBe(`tessera: secret ${SECRET} is not set`);
    expect(result.stderr).toMatch(/SecretError: secret START_UP_TEST_API_KEY is not set\n\s+at /);
  }, CLI_TIMEOUT_MS);
});
