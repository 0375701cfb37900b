// `tessera dev` as a user runs it: serves the entry with the reference page, and after an edit to a file
// the entry imports, restarts and serves the change, printing one line per reload.
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT, temporaryFolder } from '../helpers/bundles';
import { freePort } from '../helpers/free-port';
import { request } from '../helpers/request';
import { spawnCli, startCli, type RunningCli } from '../helpers/spawn-cli';

const CLI_TIMEOUT_MS = 60_000;

/** From now on, collects what the child prints; the function returned waits until `pattern` appears in it. */
function watchOutput(child: RunningCli['child']): (pattern: RegExp, timeoutMs?: number) => Promise<string> {
  let output = '';
  child.stdout!.on('data', (chunk: string) => (output += chunk));
  return (pattern, timeoutMs = 30_000) =>
    new Promise((resolve, reject) => {
      const started = Date.now();
      const poll = setInterval(() => {
        if (pattern.test(output)) {
          clearInterval(poll);
          resolve(output);
        } else if (Date.now() - started > timeoutMs) {
          clearInterval(poll);
          reject(new Error(`no ${pattern} in:\n${output}`));
        }
      }, 50);
    });
}

describe('tessera dev', () => {
  it('says what it does in --help, with --port', async () => {
    const result = await spawnCli(['dev', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('tessera dev <entry>');
    expect(result.stdout).toMatch(/reference page, restart on\s+change/);
    expect(result.stdout).toMatch(/--port \[port\]\s+Port to listen on, 1 to 65535 \(default: PORT, then 4000\)/);
  }, CLI_TIMEOUT_MS);

  it('exits 1 with one line for an invalid PORT or a missing entry', async () => {
    const badPort = await spawnCli(['dev', '__tests__/bin/entries/bundle-sqlite.ts'], { PORT: '99999' });
    expect(badPort.code).toBe(1);
    expect(badPort.stderr).toBe('tessera: invalid PORT "99999": expected an integer from 1 to 65535\n');
    const missing = await spawnCli(['dev', '__tests__/bin/entries/missing.ts']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe('tessera: entry not found: __tests__/bin/entries/missing.ts\n');
  }, CLI_TIMEOUT_MS);

  describe('serving a copy of an entry', () => {
    const folder = temporaryFolder('dev');
    let app: string;
    let dev: RunningCli;
    let port: number;

    beforeAll(async () => {
      for (const file of ['bundle-sqlite.ts', 'bundle-app.ts']) fs.copyFileSync(path.join(REPO_ROOT, '__tests__/bin/entries', file), path.join(folder.path, file));
      app = path.join(folder.path, 'bundle-app.ts');
      port = await freePort();
      // spec §8.1: --port wins over PORT.
      dev = await startCli(['dev', path.join(folder.path, 'bundle-sqlite.ts'), '--port', String(port)], { PORT: '1' }, CLI_TIMEOUT_MS);
    }, CLI_TIMEOUT_MS);

    afterAll(async () => {
      await dev?.stop();
    });

    it('listens on --port and mounts the reference page', async () => {
      expect(dev.url).toBe(`http://localhost:${port}`);
      expect((await request(`${dev.url}/reference`)).status).toBe(200);
      expect((await request(`${dev.url}/openapi.json`)).body.info.title).toBe('Bundle test');
    });

    it('restarts after an imported file changes and serves the change', async () => {
      const waitFor = watchOutput(dev.child);
      fs.writeFileSync(app, fs.readFileSync(app, 'utf8').replace("title: 'Bundle test'", "title: 'Bundle test, edited'"));
      const output = await waitFor(/Tessera listening on /);
      expect(output.split('\n').filter((line) => line.startsWith('tessera dev:'))).toEqual([expect.stringMatching(/^tessera dev: .*bundle-app\.ts changed, restarting$/)]);
      expect((await request(`${dev.url}/openapi.json`)).body.info.title).toBe('Bundle test, edited');
    }, CLI_TIMEOUT_MS);

    it('keeps running when an edit breaks the entry, and serves again once it is fixed', async () => {
      const source = fs.readFileSync(app, 'utf8');
      const waitForStop = watchOutput(dev.child);
      fs.writeFileSync(app, `${source}\nthrow new Error('half-written');\n`);
      await waitForStop(/the server stopped \(exit code 1\); waiting for a change to restart/);
      const waitForRestart = watchOutput(dev.child);
      fs.writeFileSync(app, source.replace("'Bundle test, edited'", "'Bundle test, fixed'"));
      await waitForRestart(/Tessera listening on /);
      expect((await request(`${dev.url}/openapi.json`)).body.info.title).toBe('Bundle test, fixed');
    }, CLI_TIMEOUT_MS);
  });
});
