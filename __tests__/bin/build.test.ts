// `tessera build` as a user runs it: its help, its one-line errors, the type check, the PORT rules of a built
// bundle (spec §8.1), a bundle that runs without the sources, and stale-file cleanup that never touches (or
// overwrites) a file the build did not write.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, buildCli, linkPackages, readTree, removeFolder, runBundle, startBundle, temporaryFolder, REPO_ROOT } from '../helpers/bundles';
import { freePort } from '../helpers/free-port';
import { request } from '../helpers/request';
import { spawnCli } from '../helpers/spawn-cli';

const SQLITE_ENTRY = '__tests__/bin/entries/bundle-sqlite.ts';
const CLI_TIMEOUT_MS = 60_000;

function stderrLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line !== '');
}

describe('tessera build', () => {
  const folder = temporaryFolder('build');

  it('says what it does in --help, with --out and --port', async () => {
    const result = await spawnCli(['build', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('tessera build <entry>');
    expect(result.stdout).toContain('Type-check the entry, then write a bundle');
    expect(result.stdout).toMatch(/--out \[folder\]\s+Folder to write the bundle into: new, empty, or an\s+earlier\s+bundle\s+\(default: dist\)/);
    expect(result.stdout).toMatch(/--typecheck\s+Type-check the entry and the files it imports first;\s+--no-typecheck skips it/);
    expect(result.stdout).toMatch(/--port \[port\]\s+Port the bundle listens on when PORT is not set/);
  }, CLI_TIMEOUT_MS);

  it('is listed with dev and start in tessera --help', async () => {
    const result = await spawnCli(['--help']);
    expect(result.code).toBe(0);
    for (const command of ['tessera build <entry>', 'tessera dev <entry>', 'tessera start <entry>']) expect(result.stdout).toContain(command);
  }, CLI_TIMEOUT_MS);

  it.each([
    ['a missing entry', '__tests__/bin/entries/missing.ts', 'tessera: entry not found: __tests__/bin/entries/missing.ts'],
    ['an entry that is a folder', '__tests__/bin/entries', 'tessera: entry __tests__/bin/entries is a folder: name the file that defines your services (app.ts)'],
    ['an entry that registers no service', '__tests__/bin/entries/empty.ts', 'tessera: entry __tests__/bin/entries/empty.ts registered no service: call defineService(...) in it'],
  ])('exits 1 with one line for %s, writing nothing', async (_case, entry, line) => {
    const out = path.join(folder.path, 'failed');
    const result = await buildCli(entry, out);
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual([line]);
    expect(fs.existsSync(out)).toBe(false);
  }, CLI_TIMEOUT_MS);

  it('exits 1 for an entry that throws, naming the reason and where, writing nothing', async () => {
    const out = path.join(folder.path, 'failed');
    const result = await buildCli('__tests__/bin/entries/throws.ts', out);
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual([
      'tessera: entry __tests__/bin/entries/throws.ts failed to load: database settings are missing',
      '  at __tests__/bin/entries/throws.ts:2:7',
    ]);
    expect(fs.existsSync(out)).toBe(false);
  }, CLI_TIMEOUT_MS);

  it('exits 1 with one line for an invalid --port, before loading the entry', async () => {
    const result = await buildCli('__tests__/bin/entries/throws.ts', path.join(folder.path, 'failed'), ['--port', '65536']);
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual(['tessera: invalid --port "65536": expected an integer from 1 to 65535']);
  }, CLI_TIMEOUT_MS);

  it('rebuilds an unchanged entry without writing a file, and deletes only the stale generated files', async () => {
    const app = path.join(folder.path, 'app');
    fs.mkdirSync(app);
    for (const file of ['bundle-sqlite.ts', 'bundle-app.ts']) fs.copyFileSync(path.join(REPO_ROOT, '__tests__/bin/entries', file), path.join(app, file));
    const entry = path.join(app, 'bundle-sqlite.ts');
    const out = path.join(folder.path, 'stale');
    await build(entry, out);
    const first = readTree(out);

    expect((await build(entry, out)).stdout).toBe(`tessera build: ${out}: ${first.size} files (0 written)\n`);
    expect(readTree(out)).toEqual(first);

    // Files the build did not generate, one of them where generated files live.
    fs.writeFileSync(path.join(out, 'notes.txt'), 'mine');
    fs.writeFileSync(path.join(out, 'handlers/bundle/notes/custom.js'), 'mine');
    const source = fs.readFileSync(path.join(app, 'bundle-app.ts'), 'utf8');
    fs.writeFileSync(path.join(app, 'bundle-app.ts'), source.replace("access: 'public',", "access: 'public',\n      operations: { delete: false },"));
    const rebuilt = await build(entry, out);
    expect(rebuilt.stdout).toMatch(/ 1 stale removed\)\n$/);

    const after = readTree(out);
    expect(after.has('handlers/bundle/notes/delete.js')).toBe(false);
    expect(after.get('notes.txt')).toBe('mine');
    expect(after.get('handlers/bundle/notes/custom.js')).toBe('mine');
    expect(JSON.parse(after.get('manifest.json')!).files).not.toContain('handlers/bundle/notes/delete.js');
    expect(after.get('compilation.js')).not.toContain('delete');
  }, 3 * CLI_TIMEOUT_MS);

  it('exits 1 with one line for --out without a folder, writing nothing', async () => {
    const before = fs.readdirSync(REPO_ROOT).sort();
    const result = await spawnCli(['build', SQLITE_ENTRY, '--out']);
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual(['tessera: --out needs a folder: tessera build <entry> --out dist']);
    expect(fs.readdirSync(REPO_ROOT).sort()).toEqual(before);
  }, CLI_TIMEOUT_MS);

  it('exits 1 with one line for --out naming a file, leaving it alone', async () => {
    const result = await spawnCli(['build', SQLITE_ENTRY, '--out', SQLITE_ENTRY]);
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual([`tessera: --out ${SQLITE_ENTRY} is a file; name a folder for the bundle: tessera build <entry> --out dist`]);
  }, CLI_TIMEOUT_MS);

  it('refuses a folder that holds files but no bundle, and leaves them alone', async () => {
    const out = path.join(folder.path, 'mine');
    fs.mkdirSync(out);
    fs.writeFileSync(path.join(out, 'server.js'), 'my own server');
    const result = await buildCli(SQLITE_ENTRY, out, ['--no-typecheck']);
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual([`tessera: --out ${out} is not empty and holds no Tessera bundle (no manifest.json): choose a new or empty folder`]);
    expect(fs.readdirSync(out)).toEqual(['server.js']);
    expect(fs.readFileSync(path.join(out, 'server.js'), 'utf8')).toBe('my own server');
  }, CLI_TIMEOUT_MS);

  it('never overwrites a file of its folder that no earlier build wrote', async () => {
    const app = path.join(folder.path, 'overwrite');
    fs.mkdirSync(app);
    for (const file of ['bundle-sqlite.ts', 'bundle-app.ts']) fs.copyFileSync(path.join(REPO_ROOT, '__tests__/bin/entries', file), path.join(app, file));
    const source = fs.readFileSync(path.join(app, 'bundle-app.ts'), 'utf8');
    fs.writeFileSync(path.join(app, 'bundle-app.ts'), source.replace("access: 'public',", "access: 'public',\n      operations: { delete: false },"));
    const out = path.join(app, 'dist');
    await build(path.join(app, 'bundle-sqlite.ts'), out);
    // The user's own file where the next build (with delete back on) would write its handler.
    fs.writeFileSync(path.join(out, 'handlers/bundle/notes/delete.js'), 'mine');
    fs.writeFileSync(path.join(app, 'bundle-app.ts'), source);
    const before = readTree(out);
    const result = await buildCli(path.join(app, 'bundle-sqlite.ts'), out);
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual([`tessera: --out ${out} holds handlers/bundle/notes/delete.js, which no earlier build wrote: move it away or choose another folder`]);
    expect(readTree(out)).toEqual(before);
  }, 3 * CLI_TIMEOUT_MS);

  /**
   * The SQLite test entry copied into `name`, with `lines` appended to its application module; what a build of it
   * prints for a type error on the first appended line (tsc's line, and the summary), and where it writes.
   */
  function typedApp(name: string, lines: string) {
    const app = path.join(folder.path, name);
    fs.mkdirSync(app);
    for (const file of ['bundle-sqlite.ts', 'bundle-app.ts']) fs.copyFileSync(path.join(REPO_ROOT, '__tests__/bin/entries', file), path.join(app, file));
    const line = fs.readFileSync(path.join(app, 'bundle-app.ts'), 'utf8').split('\n').length;
    fs.appendFileSync(path.join(app, 'bundle-app.ts'), lines);
    const entry = path.join(app, 'bundle-sqlite.ts');
    return {
      entry,
      out: path.join(app, 'dist'),
      error: (message: string) => `${path.relative(REPO_ROOT, path.join(app, 'bundle-app.ts'))}(${line},14): error TS2322: ${message}`,
      summary: `tessera: 1 type error in ${entry} and the files it imports (--no-typecheck skips this check)`,
    };
  }

  it('refuses an entry with type errors, printed as tsc prints them, unless --no-typecheck', async () => {
    const { entry, out, error, summary } = typedApp('typed', 'export const oops: number = "string";\n');
    const result = await buildCli(entry, out);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(error("Type 'string' is not assignable to type 'number'."));
    expect(stderrLines(result.stderr).at(-1)).toBe(summary);
    expect(fs.existsSync(out)).toBe(false);

    await build(entry, out, ['--no-typecheck']);
    expect(fs.existsSync(path.join(out, 'server.js'))).toBe(true);
  }, 3 * CLI_TIMEOUT_MS);

  it('stops at once in a project without TypeScript, before the entry loads (nothing it does at load happens)', async () => {
    // A folder of its own: inside the suite's folder, Node would find that folder's TypeScript.
    const app = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-build-untyped-'));
    linkPackages(app, { without: ['typescript'] });
    const marker = path.join(app, 'loaded.txt');
    fs.writeFileSync(path.join(app, 'app.ts'), `import fs from 'node:fs';\nfs.writeFileSync(${JSON.stringify(marker)}, 'loaded');\nexport default {};\n`);
    try {
      const result = await buildCli(path.join(app, 'app.ts'), path.join(app, 'dist'));
      expect(result.code).toBe(1);
      expect(stderrLines(result.stderr)).toEqual([
        "tessera: tessera build type-checks with the project's TypeScript, and none is installed: npm install --save-dev typescript, or build with --no-typecheck",
      ]);
      expect(fs.existsSync(marker)).toBe(false);
      expect(fs.existsSync(path.join(app, 'dist'))).toBe(false);
    } finally {
      removeFolder(app);
    }
  }, CLI_TIMEOUT_MS);

  it('reports the type errors, not what the entry threw, when an entry with type errors fails to load (the check runs while it loads)', async () => {
    const { entry, out, error, summary } = typedApp('typed-throwing', 'export const limit: number = process.env.LIMIT;\nif (typeof limit !== "number") throw new Error("the entry broke at load");\n');
    const result = await buildCli(entry, out);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(error("Type 'string | undefined' is not assignable to type 'number'."));
    expect(result.stderr).not.toContain('the entry broke at load');
    expect(stderrLines(result.stderr).at(-1)).toBe(summary);
    expect(fs.existsSync(out)).toBe(false);

    // Without the check, the load's own failure is what the build reports.
    const unchecked = await buildCli(entry, out, ['--no-typecheck']);
    expect(unchecked.code).toBe(1);
    expect(unchecked.stderr).toContain('the entry broke at load');
    expect(fs.existsSync(out)).toBe(false);
  }, 3 * CLI_TIMEOUT_MS);
});

describe('the port of a built bundle (spec §8.1)', () => {
  const folder = temporaryFolder('bundle-port');
  let out: string;
  let builtPort: number;

  beforeAll(async () => {
    out = path.join(folder.path, 'dist');
    builtPort = await freePort();
    await build(SQLITE_ENTRY, out, ['--port', String(builtPort)]);
  }, CLI_TIMEOUT_MS);

  it('listens on the --port given to build when PORT is not set', async () => {
    const server = await startBundle(out);
    await server.stop();
    expect(server.url).toBe(`http://localhost:${builtPort}`);
  }, CLI_TIMEOUT_MS);

  it('listens on PORT before the --port given to build', async () => {
    const port = await freePort();
    const server = await startBundle(out, { PORT: String(port) });
    await server.stop();
    expect(server.url).toBe(`http://localhost:${port}`);
  }, CLI_TIMEOUT_MS);

  it.each(['abc', '0', '65536', '80.5', ''])('exits 1 with one line for PORT=%j', async (port) => {
    const result = await runBundle(out, { PORT: port });
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual([`tessera: invalid PORT ${JSON.stringify(port)}: expected an integer from 1 to 65535`]);
    expect(result.stdout).toBe('');
  }, CLI_TIMEOUT_MS);

  it('runs with only the bundle and node_modules: no source file, no tsx', async () => {
    const deployed = path.join(folder.path, 'deployed');
    fs.mkdirSync(deployed);
    linkPackages(deployed);
    fs.cpSync(out, path.join(deployed, 'dist'), { recursive: true });
    const server = await startBundle(path.join(deployed, 'dist'), { PORT: String(await freePort()) });
    try {
      const created = await request(`${server.url}/api/notes`, { method: 'POST', body: { title: 'deployed' } });
      expect(created).toMatchObject({ status: 201, body: { title: 'deployed' } });
    } finally {
      await server.stop();
    }
  }, CLI_TIMEOUT_MS);
});
