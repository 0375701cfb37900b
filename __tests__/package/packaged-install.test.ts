// Tessera as a user gets it: `npm pack`, then the tarball installed from outside the repository (with drizzle-orm,
// better-sqlite3 and drizzle-kit from the registry) into a project `tessera init` wrote. Three applications run
// there: the init project itself (`npm start`), a "type": "module" TypeScript app with top-level await and a
// CommonJS JavaScript app. The project's own tsc accepts the TypeScript ones and catches a misuse of Tessera's API.
// Each app is served by `tessera start` (compiled and --no-compiler) and built with `tessera build` (type check
// included); its bundle, copied away with only package.json and node_modules, answers under
// --disallow-code-generation-from-strings exactly as the two start modes do.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/free-port';
import { request, type Response } from '../helpers/request';
import { runNode, startNode, type RunningCli } from '../helpers/spawn-cli';

const REPO_ROOT = path.resolve(__dirname, '../..');
const INSTALL_TIMEOUT_MS = 10 * 60_000;
const STEP_TIMEOUT_MS = 120_000;

/** The ES module app's own TypeScript: the native compiler, which has a tsc and no compiler API. */
const ESM_APP_TYPESCRIPT = '~7.0.2';

const ESM_APP = {
  'package.json': JSON.stringify({ name: 'esm-app', private: true, type: 'module' }, null, 2),
  'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, noEmit: true, types: ['node'] } }, null, 2),
  'schema.ts': `import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const books = sqliteTable('books', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  title: text('title').notNull(),
  secret: text('secret'),
});
`,
  'app.ts': `import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { crud, defineService, type ServerOptions } from 'tessera-api';
import { books } from './schema.js';

const client = new Database(process.env.DATABASE_FILE ?? ':memory:');
// Top-level await: the table exists before the server starts.
await new Promise((resolve) => setTimeout(resolve, 5));
client.exec('CREATE TABLE IF NOT EXISTS books (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, secret TEXT)');

const library = defineService({ name: 'library', db: drizzle(client) });
library.resource({ name: 'books', table: books, id: books.id }).use(
  crud({ access: 'public', fields: { id: { read: true, sort: true }, title: { read: true, create: true, filter: ['contains'] } } }),
);

export default { title: 'Library' } satisfies ServerOptions;
`,
};

const CJS_APP = {
  'package.json': JSON.stringify({ name: 'cjs-app', private: true, type: 'commonjs' }, null, 2),
  'app.js': `const Database = require('better-sqlite3');
const { drizzle } = require('drizzle-orm/better-sqlite3');
const { integer, sqliteTable, text } = require('drizzle-orm/sqlite-core');
const { crud, defineService } = require('tessera-api');

const books = sqliteTable('books', { id: integer('id').primaryKey({ autoIncrement: true }), title: text('title').notNull(), secret: text('secret') });
const client = new Database(process.env.DATABASE_FILE || ':memory:');
client.exec('CREATE TABLE IF NOT EXISTS books (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, secret TEXT)');

const library = defineService({ name: 'library', db: drizzle(client) });
library.resource({ name: 'books', table: books, id: books.id }).use(
  crud({ access: 'public', fields: { id: { read: true, sort: true }, title: { read: true, create: true, filter: ['contains'] } } }),
);

module.exports = { title: 'Library' };
`,
};

/** The same requests for every mode; the answers must be byte for byte the same. */
async function exercise(url: string): Promise<Pick<Response, 'status' | 'contentType' | 'text'>[]> {
  const answers = [
    await request(`${url}/api/books`, { method: 'POST', body: { title: 'Dune' } }),
    await request(`${url}/api/books`, { method: 'POST', body: { title: 'Emma', secret: 'no' } }),
    await request(`${url}/api/books/query`, { method: 'POST', body: { where: { title: { contains: 'un' } }, includeTotal: true } }),
    await request(`${url}/api/books/1`),
    await request(`${url}/api/books/query`, { method: 'POST', body: { orderBy: [{ field: 'id', direction: 'down' }] } }),
    await request(`${url}/_health`),
  ];
  return answers.map(({ status, contentType, text }) => ({ status, contentType, text: text.replace(/"uptime":\d+/, '"uptime":0') }));
}

function writeFiles(dir: string, files: Record<string, string>): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
}

/** Spawns a command in its own process group, so stopping it stops what it started (npm → sh → node). */
function startGroup(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<{ url: string; stop(): Promise<void>; output(): string }> {
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

describe('Tessera installed from its packed tarball into a project outside the repository', () => {
  let root: string;
  let project: string;
  let tessera: string;
  let tarball: string;

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-packaged-'));
    // lib/ is fresh (the suite's global set-up builds it); --ignore-scripts keeps `prepare` from rebuilding it under
    // the other test files that are using it right now.
    const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', root], { cwd: REPO_ROOT, encoding: 'utf8' })) as {
      filename: string;
      size: number;
      entryCount: number;
      files: { path: string }[];
    }[];
    tarball = path.join(root, packed[0].filename);
    process.stdout.write(`packed ${packed[0].filename}: ${packed[0].size} bytes, ${packed[0].entryCount} files\n`);

    project = path.join(root, 'my-api');
    execFileSync(process.execPath, [path.join(REPO_ROOT, 'lib/bin/tessera.js'), 'init', project], { encoding: 'utf8' });
    // Tessera is not on the registry under this name: the project takes it from the tarball; the rest from the registry.
    const manifest = JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    manifest.dependencies['tessera-api'] = `file:${tarball}`;
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund'], { cwd: project, stdio: 'ignore', timeout: INSTALL_TIMEOUT_MS });
    tessera = path.join(project, 'node_modules', '.bin', 'tessera');
    // Two more applications in the project's folders, sharing its node_modules; the ES module one has TypeScript 7
    // (what `npm install typescript` gives today, the native compiler) of its own, which its build checks with.
    writeFiles(path.join(project, 'esm-app'), ESM_APP);
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--save-dev', `typescript@${ESM_APP_TYPESCRIPT}`], { cwd: path.join(project, 'esm-app'), stdio: 'ignore', timeout: INSTALL_TIMEOUT_MS });
    writeFiles(path.join(project, 'cjs-app'), CJS_APP);
  }, INSTALL_TIMEOUT_MS);

  afterAll(() => {
    if (root !== undefined) fs.rmSync(root, { recursive: true, force: true });
  });

  it('packs compiled JavaScript with declarations and an ES module entry, and no TypeScript source or test', () => {
    const listed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter((line) => line !== '');
    for (const file of ['package/lib/runtime/index.js', 'package/lib/runtime/index.d.ts', 'package/lib/esm/index.mjs', 'package/lib/esm/index.d.mts', 'package/lib/esm/types/runtime/index.d.mts', 'package/lib/bin/tessera.js', 'package/lib/templates/init/app.ts']) {
      expect(listed).toContain(file);
    }
    expect(listed.filter((file) => /\.ts$/.test(file) && !/\.d\.m?ts$/.test(file) && !file.includes('/templates/'))).toEqual([]);
    expect(listed.filter((file) => file.includes('__tests__') || file.includes('fixtures/'))).toEqual([]);
  });

  it('serves the project `tessera init` wrote with npm start (its table created by drizzle-kit), and builds it', async () => {
    const server = await startGroup('npm', ['start'], project, { PORT: String(await freePort()) });
    try {
      const created = await request(`${server.url}/api/notes`, { method: 'POST', body: { title: 'Hello' } });
      expect(created).toMatchObject({ status: 201, body: { id: expect.any(String), title: 'Hello', content: null } });
      const found = await request(`${server.url}/api/notes/query`, { method: 'POST', body: { where: { title: { contains: 'ell' } } } });
      expect(found).toMatchObject({ status: 200, body: { items: [created.body] } });
    } finally {
      await server.stop();
    }
    const built = await runNode([tessera, 'build', 'app.ts', '--out', 'dist'], {}, STEP_TIMEOUT_MS, project);
    expect(built).toMatchObject({ code: 0, stderr: '' });
    expect(fs.existsSync(path.join(project, 'dist', 'entry.mjs'))).toBe(true);
  }, 3 * STEP_TIMEOUT_MS);

  describe.each([
    ['a "type": "module" TypeScript app with top-level await', 'esm-app', 'app.ts'],
    ['a CommonJS JavaScript app', 'cjs-app', 'app.js'],
  ])('%s', (_kind, folder, entry) => {
    it('answers alike through tessera start, start --no-compiler, and its bundle deployed alone', async () => {
      const app = path.join(project, folder);
      const answers: Record<string, unknown> = {};
      for (const [mode, flags] of [['compiled', []], ['generic', ['--no-compiler']]] as const) {
        const server: RunningCli = await startNode([tessera, 'start', entry, '--port', String(await freePort()), ...flags], { DATABASE_FILE: `${mode}.db` }, STEP_TIMEOUT_MS, app);
        try {
          answers[mode] = await exercise(server.url);
        } finally {
          await server.stop();
        }
      }

      // The type check runs (TypeScript with the app's own tsconfig), then the bundle is written.
      const built = await runNode([tessera, 'build', entry, '--out', 'dist'], {}, STEP_TIMEOUT_MS, app);
      expect(built).toMatchObject({ code: 0, stderr: '' });

      // Production gets dist/, package.json and node_modules, and nothing else.
      const deployed = path.join(root, `deployed-${folder}`);
      fs.mkdirSync(deployed);
      fs.cpSync(path.join(app, 'dist'), path.join(deployed, 'dist'), { recursive: true });
      fs.copyFileSync(path.join(app, 'package.json'), path.join(deployed, 'package.json'));
      fs.cpSync(path.join(project, 'node_modules'), path.join(deployed, 'node_modules'), { recursive: true, verbatimSymlinks: true });
      const bundle = await startNode(['--disallow-code-generation-from-strings', 'dist/server.js'], { PORT: String(await freePort()), DATABASE_FILE: 'bundle.db' }, STEP_TIMEOUT_MS, deployed);
      try {
        answers.bundle = await exercise(bundle.url);
      } finally {
        await bundle.stop();
      }

      expect((answers.compiled as { status: number }[]).map((answer) => answer.status)).toEqual([201, 400, 200, 200, 400, 200]);
      expect(answers.generic).toEqual(answers.compiled);
      expect(answers.bundle).toEqual(answers.compiled);
    }, 5 * STEP_TIMEOUT_MS);
  });

  // An app's own TypeScript, as its editor and CI run it: 5.9 (what `tessera init` pins) in the project, 7 in esm-app.
  const tsc = (cwd: string, ...args: string[]) => runNode([path.join(cwd, 'node_modules', 'typescript', 'bin', 'tsc'), '--noEmit', '--pretty', 'false', ...args], {}, STEP_TIMEOUT_MS, cwd);

  it("type-checks under each app's own tsc (5.9 in the project, 7 in esm-app): an ES module's table is the one Tessera takes", async () => {
    // An ES module importing tessera gets ES module declarations, whose drizzle-orm is the application's own
    // (its `.d.ts`), not the CommonJS `.d.cts` twin: otherwise every `table:` is a TS2322 "two different types".
    expect(await tsc(project, '-p', '.')).toMatchObject({ code: 0, stdout: '' });
    expect(await tsc(path.join(project, 'esm-app'), '-p', '.')).toMatchObject({ code: 0, stdout: '' });
  }, 2 * STEP_TIMEOUT_MS);

  it("catches a misuse of Tessera's API in an ES module app: its declarations are types, not any", async () => {
    const app = path.join(project, 'esm-app');
    fs.writeFileSync(
      path.join(app, 'misuse.ts'),
      `import { crud, defineService } from 'tessera-api';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { books } from './schema.js';

const shop = defineService({ name: 'shop', db: drizzle(':memory:') });
const resource = shop.resource({ name: 'books', table: books, id: books.id }).use(crud({ access: 'public', fields: { title: { read: 'yes' } } }));
export const name: number = resource.name;
`,
    );
    try {
      const checked = await tsc(app, '-p', '.');
      expect(checked.code).not.toBe(0);
      expect(checked.stdout.trim().split('\n')).toEqual([
        "misuse.ts(6,127): error TS2322: Type 'string' is not assignable to type 'boolean | undefined'.",
        "misuse.ts(7,14): error TS2322: Type 'string' is not assignable to type 'number'.",
      ]);
    } finally {
      fs.rmSync(path.join(app, 'misuse.ts'));
    }
  }, STEP_TIMEOUT_MS);

  it('refuses to build an app with a type error, naming file and line as tsc does', async () => {
    const app = path.join(project, 'esm-app');
    fs.appendFileSync(path.join(app, 'schema.ts'), 'export const oops: number = "string";\n');
    const built = await runNode([tessera, 'build', 'app.ts', '--out', 'dist-typed'], {}, STEP_TIMEOUT_MS, app);
    expect(built.code).toBe(1);
    expect(built.stderr).toContain("schema.ts(8,14): error TS2322: Type 'string' is not assignable to type 'number'.");
    expect(fs.existsSync(path.join(app, 'dist-typed'))).toBe(false);
  }, STEP_TIMEOUT_MS);
});
