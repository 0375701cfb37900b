// The dashboard as users start it (CONTRACT §8): `tessera start`, `tessera dev` and a built bundle's server.js
// serve it on its own port and print where; the loopback rule and a busy port stop the start with one line.
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { build, startBundle, temporaryFolder } from '../helpers/bundles';
import { freePort } from '../helpers/free-port';
import { spawnCli, startCli, type RunningCli } from '../helpers/spawn-cli';

const ENTRY = '__tests__/bin/entries/dashboard-app.ts';
const TOKEN = 'cli-dashboard-token';
const CLI_TIMEOUT_MS = 60_000;

function stderrLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line !== '');
}

/** Reads one note through the API, then the dashboard's summary with the token: the note's get is counted. */
async function expectWatched(api: string, dashboardUrl: string): Promise<void> {
  expect((await fetch(`${api}/api/notes/1`)).status).toBe(200);
  expect((await fetch(`${dashboardUrl}/api/summary`)).status).toBe(401);
  const summary = (await (await fetch(`${dashboardUrl}/api/summary`, { headers: { authorization: `Bearer ${TOKEN}` } })).json()) as any;
  expect(summary.title).toBe('Watched');
  expect(summary.operations).toEqual([expect.objectContaining({ operation: 'watched.notes.get', method: 'GET', requests: 1, errors: 0 })]);
}

function dashboardLine(output: string): string {
  const match = /^ {2}Dashboard: (http:\/\/\S+)$/m.exec(output);
  if (match === null) throw new Error(`no dashboard line in:\n${output}`);
  return match[1];
}

describe('the dashboard from the CLI', () => {
  const folder = temporaryFolder('dashboard-cli');
  const running: RunningCli[] = [];
  afterEach(async () => {
    for (const each of running.splice(0)) await each.stop();
  });

  async function environment(): Promise<Record<string, string>> {
    return { DASHBOARD_PORT: String(await freePort()), HISTORY_FILE: path.join(folder.path, `history-${running.length}.db`), DASHBOARD_TOKEN: TOKEN };
  }

  it('is served by tessera start on its own port, printed with the listening lines', async () => {
    const env = await environment();
    const cli = await startCli(['start', ENTRY, '--port', String(await freePort())], env, CLI_TIMEOUT_MS);
    running.push(cli);
    const url = dashboardLine(cli.stdout());
    expect(url).toBe(`http://127.0.0.1:${env.DASHBOARD_PORT}`);
    await expectWatched(cli.url, url);
    expect(fs.existsSync(env.HISTORY_FILE)).toBe(true);
  }, CLI_TIMEOUT_MS);

  it('is served by tessera dev', async () => {
    const env = await environment();
    const cli = await startCli(['dev', ENTRY, '--port', String(await freePort())], env, CLI_TIMEOUT_MS);
    running.push(cli);
    await expectWatched(cli.url, dashboardLine(cli.stdout()));
  }, CLI_TIMEOUT_MS);

  it('is served by a built bundle', async () => {
    const out = path.join(folder.path, 'dist');
    await build(ENTRY, out);
    const env = await environment();
    const server = await startBundle(out, { ...env, PORT: String(await freePort()) });
    running.push(server);
    await expectWatched(server.url, dashboardLine(server.stdout()));
  }, 120_000);

  it('is served once, by the primary, for a server with workers: it counts the requests the workers answered', async () => {
    const env = await environment();
    const cli = await startCli(['start', ENTRY, '--port', String(await freePort()), '--workers', '2'], env, CLI_TIMEOUT_MS);
    running.push(cli);
    const url = dashboardLine(cli.stdout());
    expect(cli.stdout()).toMatch(/^ {2}Workers: {3}2 /m);
    for (let index = 0; index < 6; index++) expect((await fetch(`${cli.url}/api/notes/1`)).status).toBe(200);
    // Each worker reports its telemetry to the primary once a second.
    const headers = { authorization: `Bearer ${TOKEN}` };
    let requests = 0;
    for (let attempt = 0; attempt < 50 && requests < 6; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const summary = (await (await fetch(`${url}/api/summary`, { headers })).json()) as any;
      requests = summary.operations.find((each: { operation: string }) => each.operation === 'watched.notes.get')?.requests ?? 0;
    }
    expect(requests).toBe(6);
  }, CLI_TIMEOUT_MS);

  it('refuses to start beyond loopback without auth: one line naming the dashboard, exit code 1', async () => {
    const env = await environment();
    const result = await spawnCli(['start', ENTRY, '--port', String(await freePort())], { ...env, DASHBOARD_TOKEN: undefined, DASHBOARD_HOST: '0.0.0.0' }, CLI_TIMEOUT_MS);
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual([
      'tessera: dashboard: host "0.0.0.0" is beyond loopback, so dashboard.auth (a token or authorize) is required; or bind it to 127.0.0.1',
    ]);
    expect(result.stdout).toBe('');
  }, CLI_TIMEOUT_MS);

  it.each([
    ['one process', []],
    ['workers', ['--workers', '2']],
  ])('stops the start with one line when the dashboard port is taken, before the API listens (%s)', async (_kind, extra) => {
    const env = await environment();
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(Number(env.DASHBOARD_PORT), '127.0.0.1', () => resolve()));
    try {
      const result = await spawnCli(['start', ENTRY, '--port', String(await freePort()), ...extra], env, CLI_TIMEOUT_MS);
      expect(result.code).toBe(1);
      expect(stderrLines(result.stderr)).toEqual([`tessera: dashboard: 127.0.0.1:${env.DASHBOARD_PORT} is already in use: stop what holds it, or choose another port with dashboard.port (0 takes any free one)`]);
      expect(result.stdout).toBe('');
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  }, CLI_TIMEOUT_MS);
});
