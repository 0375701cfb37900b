// `tessera start` as a user runs it: a child process, its exit code and its stderr lines; entries of every
// common kind (TypeScript or JavaScript, ES module with top-level await or CommonJS); its flags.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BUNDLE_NODE_FLAGS, linkPackages } from '../helpers/bundles';
import { freePort } from '../helpers/free-port';
import { request } from '../helpers/request';
import { PACKAGED_BIN, runNode, spawnCli, startCli, startNode } from '../helpers/spawn-cli';
import { RANDOM_KEYS_LINE } from '../../bin/serve';

const EMPTY_ENTRY = '__tests__/bin/entries/empty.ts';
const THROWING_ENTRY = '__tests__/bin/entries/throws.ts';
const CLI_TIMEOUT_MS = 20_000;

function stderrLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line !== '');
}

describe('tessera start', () => {
  it('exits non-zero with one line naming PORT when PORT is invalid', async () => {
    const result = await spawnCli(['start', EMPTY_ENTRY], { PORT: 'abc' });
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual([
      'tessera: invalid PORT "abc": expected an integer from 1 to 65535',
    ]);
    expect(result.stdout).toBe('');
  }, CLI_TIMEOUT_MS);

  it('exits non-zero with one line naming --port when --port is invalid, even with a valid PORT', async () => {
    const result = await spawnCli(['start', EMPTY_ENTRY, '--port', '0'], { PORT: '4000' });
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual([
      'tessera: invalid --port "0": expected an integer from 1 to 65535',
    ]);
  }, CLI_TIMEOUT_MS);

  it('exits non-zero with one line when the entry does not exist', async () => {
    const result = await spawnCli(['start', '__tests__/bin/entries/missing.ts']);
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual(['tessera: entry not found: __tests__/bin/entries/missing.ts']);
  }, CLI_TIMEOUT_MS);

  it('exits non-zero with one line when the entry is a folder', async () => {
    const result = await spawnCli(['start', '__tests__/bin/entries']);
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual(['tessera: entry __tests__/bin/entries is a folder: name the file that defines your services (app.ts)']);
  }, CLI_TIMEOUT_MS);

  it('exits non-zero with one line carrying the error of an entry that throws', async () => {
    const result = await spawnCli(['start', THROWING_ENTRY]);
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual([
      `tessera: entry ${THROWING_ENTRY} failed to load: database settings are missing`,
      `  at ${THROWING_ENTRY}:2:7`,
    ]);
  }, CLI_TIMEOUT_MS);

  it('prints the stack and its cause only under DEBUG=tessera', async () => {
    const result = await spawnCli(['start', THROWING_ENTRY], { DEBUG: 'express,tessera' });
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)[0]).toBe(
      `tessera: entry ${THROWING_ENTRY} failed to load: database settings are missing`,
    );
    expect(result.stderr).toContain('Caused by: Error: database settings are missing');
    expect(result.stderr).toContain('throws.ts:');
  }, CLI_TIMEOUT_MS);

  it('exits non-zero with one line when the entry registers no service', async () => {
    const result = await spawnCli(['start', EMPTY_ENTRY]);
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual([
      `tessera: entry ${EMPTY_ENTRY} registered no service: call defineService(...) in it`,
    ]);
  }, CLI_TIMEOUT_MS);

  it('refuses to listen when a table is missing, naming it and what to run', async () => {
    const result = await spawnCli(['start', '__tests__/bin/entries/missing-table.ts', '--port', String(await freePort())]);
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual([
      'tessera: blog.notes: table "notes" does not exist: create them with drizzle-kit (npx drizzle-kit push, or drizzle-kit generate then migrate)',
    ]);
    expect(result.stdout).toBe('');
  }, CLI_TIMEOUT_MS);

  it('lists --port, --host and --no-compiler in its --help and exits 0', async () => {
    const result = await spawnCli(['start', '--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('tessera start <entry>');
    expect(result.stdout).toContain('--port');
    expect(result.stdout).toMatch(/--host <host>\s+Interface to listen on, such as 127\.0\.0\.1 \(default: all\s+interfaces\)/);
    expect(result.stdout).toMatch(/--compiler\s+Generate a specialized handler per route at start;\s+--no-compiler\s+uses the generic handler/);
  }, CLI_TIMEOUT_MS);
});

describe('tessera start with entries of every kind', () => {
  let folder: string;
  beforeAll(() => {
    // Outside the repository's package (no "type"), so each entry's own extension or package.json decides.
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-entries-'));
    linkPackages(folder);
  });
  afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

  /** Writes `files` into a fresh subfolder and answers its path. */
  function project(name: string, files: Record<string, string>): string {
    const dir = path.join(folder, name);
    fs.mkdirSync(dir);
    for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
    return dir;
  }

  const SERVICE = (importLine: string) => `${importLine}
const client = new Database(':memory:');
client.exec('CREATE TABLE things (id INTEGER PRIMARY KEY, name TEXT NOT NULL)');
const things = sqliteTable('things', { id: integer('id').primaryKey(), name: text('name').notNull() });
const kinds = defineService({ name: 'kinds', db: drizzle(client) });
const resource = kinds.resource({ name: 'things', table: things, id: things.id }).use(
  crud({ access: 'public', fields: { id: { read: true, create: true }, name: { read: true, create: true } } }),
);
`;
  const ESM_IMPORTS = `import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { crud, defineService } from 'tessera-api';`;
  const CJS_REQUIRES = `const Database = require('better-sqlite3');
const { drizzle } = require('drizzle-orm/better-sqlite3');
const { integer, sqliteTable, text } = require('drizzle-orm/sqlite-core');
const { crud, defineService } = require('tessera-api');`;
  // The row exists only if the entry ran to its end before the server started (top-level await included).
  const AWAITED = `await new Promise((resolve) => setTimeout(resolve, 10));\nclient.exec("INSERT INTO things VALUES (1, 'made while loading')");\nvoid resource;\n`;
  const AT_THE_END = `client.exec("INSERT INTO things VALUES (1, 'made while loading')");\nvoid resource;\n`;

  it.each([
    ['TypeScript with top-level await in a CommonJS package', 'app.ts', { 'package.json': '{}' }, `${SERVICE(ESM_IMPORTS)}${AWAITED}export default { title: 'TS' };\n`],
    ['TypeScript in a "type": "module" package', 'app.ts', { 'package.json': '{ "type": "module" }' }, `${SERVICE(ESM_IMPORTS)}${AWAITED}export default { title: 'TS' };\n`],
    ['a .mts module', 'app.mts', {}, `${SERVICE(ESM_IMPORTS)}${AWAITED}export default { title: 'MTS' };\n`],
    ['a JavaScript ES module (.mjs)', 'app.mjs', {}, `${SERVICE(ESM_IMPORTS)}${AWAITED}export default { title: 'MJS' };\n`],
    ['CommonJS JavaScript', 'app.js', { 'package.json': '{}' }, `${SERVICE(CJS_REQUIRES)}${AT_THE_END}module.exports = { title: 'CJS' };\n`],
    ['a .cts module', 'app.cts', {}, `${SERVICE(CJS_REQUIRES)}${AT_THE_END}module.exports = { title: 'CTS' };\n`],
  ])('serves %s, and builds it into a bundle that serves the same', async (_kind, file, extra, text) => {
    const dir = project(file.replace('.', '-') + Object.keys(extra).length + Math.random().toString(36).slice(2, 6), { ...extra, [file]: text });
    // The packaged CLI from the application's folder, as an installed Tessera runs (`tessera` resolves to lib/).
    const started = await startNode([PACKAGED_BIN, 'start', file, '--port', String(await freePort())], {}, 60_000, dir);
    const answers: unknown[] = [];
    try {
      answers.push(await request(`${started.url}/api/things/1`));
    } finally {
      await started.stop();
    }
    const built = await runNode([PACKAGED_BIN, 'build', file, '--out', 'dist', '--no-typecheck'], {}, 60_000, dir);
    expect(built).toMatchObject({ code: 0, stderr: '' });
    const bundle = await startNode([...BUNDLE_NODE_FLAGS, 'dist/server.js'], { PORT: String(await freePort()) }, 60_000, dir);
    try {
      answers.push(await request(`${bundle.url}/api/things/1`));
    } finally {
      await bundle.stop();
    }
    expect(answers[0]).toMatchObject({ status: 200, body: { id: 1, name: 'made while loading' } });
    expect(answers[1]).toEqual(answers[0]);
  }, 90_000);

  it('names the file, line and column of a syntax error, and the reason', async () => {
    const dir = project('syntax', { 'app.ts': "const a = 1;\nconst b: number = ;\n" });
    const result = await runNode([PACKAGED_BIN, 'start', 'app.ts'], {}, CLI_TIMEOUT_MS, dir);
    expect(result.code).toBe(1);
    expect(stderrLines(result.stderr)).toEqual(['tessera: entry app.ts failed to load: SyntaxError: Unexpected ";"', '  at app.ts:2:19']);
  }, CLI_TIMEOUT_MS);
});

describe('tessera start flags', () => {
  const ENTRY = '__tests__/bin/entries/bundle-sqlite.ts';

  it('prints where it listens and where the documents are', async () => {
    const port = await freePort();
    const server = await startCli(['start', ENTRY, '--port', String(port)]);
    await server.stop();
    const base = `http://localhost:${port}`;
    expect(server.stdout().split('\n').slice(0, 3)).toEqual([
      `Tessera listening on ${base} (all interfaces)`,
      `  API docs:  ${base}/docs  (Swagger UI: ${base}/swagger)`,
      `  OpenAPI:   ${base}/openapi.json`,
    ]);
    // Issue 29: the entry sets no cursorSecret, so one line says its keys are this process's own.
    expect(server.stdout().split('\n').filter((line) => line.includes('cursorSecret'))).toEqual([RANDOM_KEYS_LINE]);
  }, CLI_TIMEOUT_MS);

  it('listens on --host only', async () => {
    const port = await freePort();
    const server = await startCli(['start', ENTRY, '--port', String(port), '--host', '127.0.0.1']);
    try {
      expect(server.url).toBe(`http://127.0.0.1:${port}`);
      expect((await request(`http://127.0.0.1:${port}/_health`)).status).toBe(200);
    } finally {
      await server.stop();
    }
  }, CLI_TIMEOUT_MS);

  it('serves with the generic handler, never loading the code generator, under --no-compiler', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-no-compiler-'));
    const probe = path.join(folder, 'probe.cjs');
    // Exits 70 as soon as anything loads the generator (the compiler), as the bundle tests' guard does.
    fs.writeFileSync(probe, `const Module = require('node:module');
const folder = ${JSON.stringify(path.resolve('generator') + path.sep)};
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const resolved = resolve.call(this, request, ...rest);
  if (resolved.startsWith(folder)) process.exit(70);
  return resolved;
};
`);
    try {
      const generic = await startCli(['start', ENTRY, '--port', String(await freePort()), '--no-compiler'], { NODE_OPTIONS: `--require ${probe}` });
      expect((await request(`${generic.url}/api/notes/query`, { method: 'POST', body: {} })).status).toBe(200);
      await generic.stop();
      const compiled = await spawnCli(['start', ENTRY, '--port', String(await freePort())], { NODE_OPTIONS: `--require ${probe}` });
      expect(compiled.code).toBe(70);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('tessera', () => {
  it('prints its version with --version', async () => {
    const result = await spawnCli(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(`${JSON.parse(fs.readFileSync('package.json', 'utf8')).version}\n`);
  }, CLI_TIMEOUT_MS);

  it('exits non-zero and lists the start command when no command is given', async () => {
    const result = await spawnCli([]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('tessera start <entry>');
  }, CLI_TIMEOUT_MS);
});
