// What the packaged-install tests share: Tessera packed as a tarball, a project `tessera init` wrote that depends on
// it, the ES module and CommonJS apps they add beside it, a Node.js of another version from the npm registry (with
// the headers better-sqlite3 compiles against), and the requests every way of serving must answer alike.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { request, type Response } from '../helpers/request';

export const REPO_ROOT = path.resolve(__dirname, '../..');
export const INSTALL_TIMEOUT_MS = 15 * 60_000;
export const STEP_TIMEOUT_MS = 120_000;

/** Node.js releases the package is tested on besides the one running the suite, as the npm registry ships them. */
export const NODE_RELEASES = { 22: '22.23.3', 24: '24.21.0' } as const;

export const ESM_APP = {
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

export const CJS_APP = {
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

export function writeFiles(dir: string, files: Record<string, string>): void {
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, file), text);
}

/** `npm pack` of the repository into `folder` (lib/ is fresh: the suite's global set-up builds it); the tarball's path. */
export function packTarball(folder: string): string {
  // --ignore-scripts keeps `prepare` from rebuilding lib/ under the other test files that are using it right now.
  const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', folder], { cwd: REPO_ROOT, encoding: 'utf8' })) as {
    filename: string;
    size: number;
    unpackedSize: number;
    entryCount: number;
  }[];
  const { filename, size, unpackedSize, entryCount } = packed[0];
  process.stdout.write(`packed ${filename}: ${size} bytes (${unpackedSize} unpacked), ${entryCount} files\n`);
  return path.join(folder, filename);
}

/** `tessera init <project>` (the repository's CLI), its tessera-api dependency pointed at the tarball. */
/** `tessera init` run by `node` (the suite's own Node by default), then the tarball as its tessera-api. */
export function initProject(project: string, tarball: string, node?: NodeRuntime): void {
  const nodeBinary = node === undefined ? process.execPath : path.join(node.binDir, 'node');
  execFileSync(nodeBinary, [path.join(REPO_ROOT, 'lib/bin/tessera.js'), 'init', project], { encoding: 'utf8' });
  const manifest = JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  manifest.dependencies['tessera-api'] = `file:${tarball}`;
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
  // Run from the checkout, init also wrote an .npmrc for a folder dependency (install-links): a tarball needs none.
  fs.rmSync(path.join(project, '.npmrc'), { force: true });
}

/** A Node.js to run commands with: its binary's folder, and its headers for node-gyp (npm_config_nodedir). */
export interface NodeRuntime {
  readonly version: string;
  readonly binDir: string;
  /** Environment that makes `node`, npm's scripts and node-gyp use this Node.js. */
  readonly env: Record<string, string>;
}

/** The Node.js running the suite; its headers come from node-gyp's cache, as for any npm install. */
export function currentNode(): NodeRuntime {
  return { version: process.version.slice(1), binDir: path.dirname(process.execPath), env: { PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH}` } };
}

/**
 * Node.js `version` from the npm registry: the `node-<platform>-<arch>` package (what the `node` package installs),
 * which holds bin/node and include/node, kept in node_modules/.cache between runs.
 */
export function registryNode(version: string): NodeRuntime {
  const name = `node-${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
  const prefix = path.join(REPO_ROOT, 'node_modules', '.cache', 'tessera', 'node', version);
  const root = path.join(prefix, 'node_modules', name);
  if (!fs.existsSync(path.join(root, 'include', 'node', 'common.gypi'))) {
    fs.mkdirSync(prefix, { recursive: true });
    fs.writeFileSync(path.join(prefix, 'package.json'), '{ "private": true }\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-save', '--ignore-scripts', `${name}@${version}`], { cwd: prefix, stdio: 'ignore', timeout: INSTALL_TIMEOUT_MS });
  }
  const binDir = path.join(root, 'bin');
  return { version, binDir, env: { PATH: `${binDir}${path.delimiter}${process.env.PATH}`, npm_config_nodedir: root } };
}

/** Runs a command to completion with `node` on PATH, throwing its output when it fails. */
export function run(command: string, args: string[], cwd: string, node: NodeRuntime, timeout = INSTALL_TIMEOUT_MS): string {
  try {
    return execFileSync(command, args, { cwd, env: { ...process.env, ...node.env }, encoding: 'utf8', timeout, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout ?? ''}\n${stderr ?? ''}`);
  }
}

export interface Served {
  url: string;
  stop(): Promise<void>;
}

/** Spawns a command in its own process group, so stopping it stops what it started (npm → sh → node). */
export function serve(command: string, args: string[], cwd: string, env: Record<string, string>): Promise<Served> {
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
        resolve({ url: match[1], stop });
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

/** The same requests for every mode; the answers must be byte for byte the same. */
export async function exercise(url: string): Promise<Pick<Response, 'status' | 'contentType' | 'text'>[]> {
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

/** The statuses `exercise` gets from a working app. */
export const EXERCISE_STATUSES = [201, 400, 200, 200, 400, 200];

/** The init project's notes resource answers a create and a filtered list that holds it, and its docs pages load their files. */
export async function exerciseInitProject(url: string): Promise<void> {
  const created = await request(`${url}/api/notes`, { method: 'POST', body: { title: 'Hello' } });
  expect(created).toMatchObject({ status: 201, body: { id: expect.any(String), title: 'Hello', content: null } });
  const found = await request(`${url}/api/notes/query`, { method: 'POST', body: { where: { title: { contains: 'ell' } } } });
  // The database may hold earlier runs' notes (a bundle started on the file `npm start` used).
  expect(found.status).toBe(200);
  expect(found.body.items).toContainEqual(created.body);
  for (const page of ['/docs', '/docs/scalar.js', '/swagger/', '/swagger/swagger-ui-bundle.js', '/swagger/swagger-ui.css']) {
    expect([page, (await request(`${url}${page}`)).status]).toEqual([page, 200]);
  }
}
