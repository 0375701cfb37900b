// `tessera build` as a user runs it: its help, its one-line errors, the PORT rules of a built bundle
// (spec §8.1), and stale-file cleanup that never touches files the build did not generate.
import fs from 'node:fs';
import path from 'node:path';
import { build, buildCli, readTree, runBundle, startBundle, temporaryFolder, REPO_ROOT } from '../helpers/bundles';
import { freePort } from '../helpers/free-port';
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
    expect(result.stdout).toContain('Write a bundle');
    expect(result.stdout).toMatch(/--out\s+Folder to write the bundle into \(default: dist\)/);
    expect(result.stdout).toMatch(/--port\s+Port the bundle listens on when PORT is not set/);
  }, CLI_TIMEOUT_MS);

  it('is listed with dev and start in tessera --help', async () => {
    const result = await spawnCli(['--help']);
    expect(result.code).toBe(0);
    for (const command of ['tessera build <entry>', 'tessera dev <entry>', 'tessera start <entry>']) expect(result.stdout).toContain(command);
  }, CLI_TIMEOUT_MS);

  it.each([
    ['a missing entry', '__tests__/bin/entries/missing.ts', 'tessera: entry not found: __tests__/bin/entries/missing.ts'],
    ['an entry that throws', '__tests__/bin/entries/throws.ts', 'tessera: entry __tests__/bin/entries/throws.ts failed to load: database settings are missing'],
    ['an entry that registers no service', '__tests__/bin/entries/empty.ts', 'tessera: entry __tests__/bin/entries/empty.ts registered no service: call defineService(...) in it'],
  ])('exits 1 with one line for %s, writing nothing', async (_case, entry, line) => {
    const out = path.join(folder.path, 'failed');
    const result = await buildCli(entry, out);
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual([line]);
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

  it('exits 1 with one line when the application entry has moved away', async () => {
    const moved = path.join(folder.path, 'elsewhere', 'dist');
    fs.mkdirSync(path.dirname(moved));
    fs.cpSync(out, moved, { recursive: true });
    const result = await runBundle(moved, { PORT: String(await freePort()) });
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual([expect.stringMatching(/^tessera: entry not found: .*bundle-sqlite\.ts$/)]);
  }, CLI_TIMEOUT_MS);
});
