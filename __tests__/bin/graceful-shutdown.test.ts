// Graceful shutdown of the processes that serve (docs/production.md): `tessera start`, with and without
// --workers, a dev child and a built bundle. SIGTERM under load: no connection reset, every accepted
// request answered, every acknowledged write stored, exit code 0. A second signal exits at once.
// Workers: one port, several processes; a worker that dies is replaced.
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';
import { buildCli, REPO_ROOT, startBundle, temporaryFolder } from '../helpers/bundles';
import { freePort } from '../helpers/free-port';
import { request } from '../helpers/request';
import { spawnCli, startCli, type RunningCli } from '../helpers/spawn-cli';
import { WriteLoad } from '../helpers/write-load';

const ENTRY = '__tests__/bin/entries/shutdown-app.ts';
const WRITERS = 16;
const LOAD_BEFORE_SIGTERM_MS = 300;
const START_TIMEOUT_MS = 60_000;

function exitOf(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('graceful shutdown', () => {
  const folder = temporaryFolder('shutdown');
  const running: RunningCli[] = [];
  afterEach(async () => {
    for (const cli of running.splice(0)) {
      cli.child.kill('SIGKILL');
      await exitOf(cli.child);
    }
  });

  function databaseFile(name: string): string {
    return path.join(folder.path, `${name}.db`);
  }

  function storedTitles(file: string): Set<string> {
    const client = new Database(file, { readonly: true });
    try {
      return new Set((client.prepare('SELECT title FROM s_notes').all() as { title: string }[]).map((row) => row.title));
    } finally {
      client.close();
    }
  }

  /** SIGTERM to a server under load; what the clients saw, and how the process ended. */
  async function sigtermUnderLoad(cli: RunningCli, file: string) {
    const port = Number(new URL(cli.url).port);
    const load = new WriteLoad(port, WRITERS);
    await sleep(LOAD_BEFORE_SIGTERM_MS);
    cli.child.kill('SIGTERM');
    const exit = await exitOf(cli.child);
    const outcome = await load.finished();
    const stored = storedTitles(file);
    return { exit, outcome, lost: outcome.created.filter((title) => !stored.has(title)) };
  }

  function expectGraceful(result: Awaited<ReturnType<typeof sigtermUnderLoad>>): void {
    expect(result.outcome.resets).toEqual([]);
    expect(Object.keys(result.outcome.answered).sort()).toEqual(['200', '201']);
    expect(result.outcome.created.length).toBeGreaterThan(0);
    expect(result.lost).toEqual([]);
    expect(result.exit).toEqual({ code: 0, signal: null });
  }

  it('tessera start: SIGTERM under 16 writers resets no connection, answers every accepted request and exits 0', async () => {
    const file = databaseFile('start');
    const cli = await startCli(['start', ENTRY, '--port', String(await freePort())], { SHUTDOWN_DATABASE: file }, START_TIMEOUT_MS);
    running.push(cli);
    const result = await sigtermUnderLoad(cli, file);
    console.log(`tessera start, SIGTERM under ${WRITERS} writers: ${JSON.stringify({ ...result.outcome, created: result.outcome.created.length })}`);
    expectGraceful(result);
    expect(cli.stdout()).toContain('tessera: SIGTERM: stopping; finishing the requests in flight\ntessera: stopped\n');
  }, 120_000);

  it('tessera start --workers 2: SIGTERM under 16 writers resets no connection, answers every accepted request and exits 0', async () => {
    const file = databaseFile('workers');
    const cli = await startCli(['start', ENTRY, '--port', String(await freePort()), '--workers', '2'], { SHUTDOWN_DATABASE: file }, START_TIMEOUT_MS);
    running.push(cli);
    expect(cli.stdout()).toMatch(/ {2}Workers: {3}2 \(node:cluster, pid \d+\)/);
    const result = await sigtermUnderLoad(cli, file);
    console.log(`tessera start --workers 2, SIGTERM under ${WRITERS} writers: ${JSON.stringify({ ...result.outcome, created: result.outcome.created.length })}`);
    expectGraceful(result);
    expect(cli.stdout()).toMatch(/tessera: SIGTERM: stopping 2 workers/);
    expect(cli.stdout()).toMatch(/tessera: stopped\n$/);
  }, 120_000);

  it('exits at once, code 143, on a second SIGTERM while a request is still running', async () => {
    const file = databaseFile('second');
    const cli = await startCli(['start', ENTRY, '--port', String(await freePort())], { SHUTDOWN_DATABASE: file, SHUTDOWN_GRACE: '600000' }, START_TIMEOUT_MS);
    running.push(cli);
    const slow = request(`${cli.url}/api/shop/slow`, { method: 'POST', body: { ms: 600_000 } }).catch((error: Error) => error);
    await sleep(300);
    cli.child.kill('SIGTERM');
    while (!cli.stdout().includes('stopping')) await sleep(20);
    cli.child.kill('SIGTERM');
    expect(await exitOf(cli.child)).toEqual({ code: 143, signal: null });
    // The request still running was cut: no answer (fetch rejects).
    expect(await slow).not.toHaveProperty('status');
  }, 120_000);

  it('answers /_health 503 "stopping" while it drains', async () => {
    const file = databaseFile('health');
    const cli = await startCli(['start', ENTRY, '--port', String(await freePort())], { SHUTDOWN_DATABASE: file }, START_TIMEOUT_MS);
    running.push(cli);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (pathname: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        http.get({ host: '127.0.0.1', port: Number(new URL(cli.url).port), path: pathname, agent }, (response) => {
          let body = '';
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () => resolve({ status: response.statusCode!, body }));
        }).on('error', reject);
      });
    expect((await get('/_health')).status).toBe(200);
    const slow = request(`${cli.url}/api/shop/slow`, { method: 'POST', body: { ms: 1500 } });
    await sleep(300);
    cli.child.kill('SIGTERM');
    while (!cli.stdout().includes('stopping')) await sleep(20);
    const health = await get('/_health'); // on the connection opened before the signal
    expect(health.status).toBe(503);
    expect(JSON.parse(health.body)).toMatchObject({ status: 'stopping' });
    expect((await slow).status).toBe(200);
    expect(await exitOf(cli.child)).toEqual({ code: 0, signal: null });
    agent.destroy();
  }, 120_000);

  it('--workers 2 serves one port from two processes and replaces a worker that dies', async () => {
    const file = databaseFile('replace');
    const cli = await startCli(['start', ENTRY, '--port', String(await freePort()), '--workers', '2'], { SHUTDOWN_DATABASE: file }, START_TIMEOUT_MS);
    running.push(cli);
    // A new connection per request: the cluster hands out connections, not requests, to its workers.
    const pidOf = () =>
      new Promise<number>((resolve, reject) => {
        const call = http.request({ host: '127.0.0.1', port: Number(new URL(cli.url).port), path: '/api/shop/pid', method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (response) => {
          let body = '';
          response.on('data', (chunk) => (body += chunk));
          response.on('end', () => resolve(JSON.parse(body).pid));
        });
        call.on('error', reject);
        call.end('{}');
      });
    const pidsSeen = async (requests: number) => {
      const pids = new Set<number>();
      for (let index = 0; index < requests; index++) pids.add(await pidOf());
      return pids;
    };
    const before = await pidsSeen(40);
    expect(before.size).toBe(2);
    const [victim] = before;
    process.kill(victim, 'SIGKILL');
    while (!/worker \d+ exited \(SIGKILL\); starting another/.test(cli.stdout())) await sleep(50);
    let after = new Set<number>();
    const deadline = Date.now() + START_TIMEOUT_MS;
    while (after.size < 2 && Date.now() < deadline) {
      after = await pidsSeen(20);
      await sleep(200);
    }
    expect(after.size).toBe(2);
    expect(after.has(victim)).toBe(false);
    cli.child.kill('SIGTERM');
    expect(await exitOf(cli.child)).toEqual({ code: 0, signal: null });
  }, 180_000);

  it.each([
    ['--workers 0', ['--workers', '0'], {}, 'tessera: invalid --workers "0": expected "auto" or a whole number from 1 to 1024'],
    ['--workers many', ['--workers', 'many'], {}, 'tessera: invalid --workers "many": expected "auto" or a whole number from 1 to 1024'],
    ['TESSERA_WORKERS=-1', [], { TESSERA_WORKERS: '-1' }, 'tessera: invalid TESSERA_WORKERS "-1": expected "auto" or a whole number from 1 to 1024'],
  ])('exits 1 with one line for %s', async (_name, flags, env, line) => {
    const result = await spawnCli(['start', ENTRY, '--port', String(await freePort()), ...flags], { SHUTDOWN_DATABASE: databaseFile('invalid'), ...env }, START_TIMEOUT_MS);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`${line}\n`);
  }, 120_000);

  it('a built bundle: SIGTERM under 16 writers resets no connection, answers every accepted request and exits 0', async () => {
    const out = path.join(folder.path, 'dist');
    const built = await buildCli(ENTRY, out, [], { SHUTDOWN_DATABASE: databaseFile('build') });
    expect(built.code).toBe(0);
    const file = databaseFile('bundle');
    const cli = await startBundle(out, { SHUTDOWN_DATABASE: file, PORT: String(await freePort()) });
    running.push(cli);
    const result = await sigtermUnderLoad(cli, file);
    console.log(`bundle, SIGTERM under ${WRITERS} writers: ${JSON.stringify({ ...result.outcome, created: result.outcome.created.length })}`);
    expectGraceful(result);

    // The same bundle on two workers (TESSERA_WORKERS), stopped the same way.
    const workers = await startBundle(out, { SHUTDOWN_DATABASE: file, PORT: String(await freePort()), TESSERA_WORKERS: '2' });
    running.push(workers);
    expect(workers.stdout()).toMatch(/ {2}Workers: {3}2 \(node:cluster, pid \d+\)/);
    workers.child.kill('SIGTERM');
    expect(await exitOf(workers.child)).toEqual({ code: 0, signal: null });
  }, 240_000);

  it('a dev child finishes its requests in flight when a change restarts it', async () => {
    const entryCopy = path.join(REPO_ROOT, '__tests__/bin/entries/shutdown-dev-copy.ts');
    fs.copyFileSync(path.join(REPO_ROOT, ENTRY), entryCopy);
    try {
      const file = databaseFile('dev');
      const cli = await startCli(['dev', '__tests__/bin/entries/shutdown-dev-copy.ts', '--port', String(await freePort())], { SHUTDOWN_DATABASE: file }, START_TIMEOUT_MS);
      running.push(cli);
      const slow = request(`${cli.url}/api/shop/slow`, { method: 'POST', body: { ms: 1500 } });
      await sleep(300);
      fs.appendFileSync(entryCopy, '\n// changed\n');
      expect((await slow).status).toBe(200);
      while (cli.stdout().split('Tessera listening on').length < 3) await sleep(50);
      expect(cli.stdout()).toContain('tessera: SIGTERM: stopping; finishing the requests in flight');
    } finally {
      fs.rmSync(entryCopy, { force: true });
    }
  }, 120_000);
});
