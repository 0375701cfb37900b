// `tessera dev` sees every file the entry loaded (issue 31): in ES module and CommonJS projects, TypeScript and
// JavaScript, an edit to a file two folders below the entry is served within 2 s. Each project is a folder of its
// own, served by the packaged CLI from that folder, as `npx tessera dev` runs in a user's project.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { linkPackages, REPO_ROOT, removeFolder } from '../../helpers/bundles';
import { waitForOutput, waitForTitle } from '../../helpers/dev-server';
import { freePort } from '../../helpers/free-port';
import { PACKAGED_BIN, startNode, type RunningCli } from '../../helpers/spawn-cli';

const CLI_TIMEOUT_MS = 60_000;
/** Issue 31: the edited file's new answer within 2 s of the edit (a bound on the wait, polled every 50 ms). */
const RELOAD_BOUND_MS = 2_000;

const TABLE = `CREATE TABLE notes (id TEXT PRIMARY KEY, title TEXT NOT NULL)`;

/** An ES module in TypeScript: what `tessera init` writes ("type": "module", its NodeNext tsconfig). */
const ESM_TYPESCRIPT = {
  'package.json': JSON.stringify({ name: 'esm-ts', private: true, type: 'module' }),
  'tsconfig.json': fs.readFileSync(path.join(REPO_ROOT, 'templates/init/tsconfig.json'), 'utf8'),
  'lib/auth/tokens.ts': `export const greeting: string = 'first';\n`,
  'app.ts': `import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { crud, defineService, type ServerOptions } from 'tessera-api';
import { greeting } from './lib/auth/tokens.js';

const notes = sqliteTable('notes', { id: text('id').primaryKey(), title: text('title').notNull() });
const client = new Database(':memory:');
client.exec('${TABLE}');
defineService({ name: 'api', db: drizzle(client) }).resource({ name: 'notes', table: notes, id: notes.id }).use(crud({ access: 'public', fields: { id: { read: true } } }));

export default { title: greeting, requestLogging: false } satisfies ServerOptions;
`,
};

/** The same in CommonJS TypeScript (no "type", tsx compiles it to CommonJS). */
const CJS_TYPESCRIPT = {
  'package.json': JSON.stringify({ name: 'cjs-ts', private: true }),
  'lib/auth/tokens.ts': `export const greeting: string = 'first';\n`,
  'app.ts': ESM_TYPESCRIPT['app.ts'].replace("'./lib/auth/tokens.js'", "'./lib/auth/tokens'"),
};

/** An ES module in JavaScript. */
const ESM_JAVASCRIPT = {
  'package.json': JSON.stringify({ name: 'esm-js', private: true, type: 'module' }),
  'lib/auth/tokens.js': `export const greeting = 'first';\n`,
  'app.js': ESM_TYPESCRIPT['app.ts'].replace('type ServerOptions ', '').replace(' satisfies ServerOptions', ''),
};

/** CommonJS JavaScript. */
const CJS_JAVASCRIPT = {
  'package.json': JSON.stringify({ name: 'cjs-js', private: true, type: 'commonjs' }),
  'lib/auth/tokens.js': `exports.greeting = 'first';\n`,
  'app.js': `const Database = require('better-sqlite3');
const { drizzle } = require('drizzle-orm/better-sqlite3');
const { sqliteTable, text } = require('drizzle-orm/sqlite-core');
const { crud, defineService } = require('tessera-api');
const { greeting } = require('./lib/auth/tokens');

const notes = sqliteTable('notes', { id: text('id').primaryKey(), title: text('title').notNull() });
const client = new Database(':memory:');
client.exec('${TABLE}');
defineService({ name: 'api', db: drizzle(client) }).resource({ name: 'notes', table: notes, id: notes.id }).use(crud({ access: 'public', fields: { id: { read: true } } }));

module.exports = { title: greeting, requestLogging: false };
`,
};

const PROJECTS = [
  { kind: 'an ES module TypeScript project (tessera init)', entry: 'app.ts', deep: 'lib/auth/tokens.ts', files: ESM_TYPESCRIPT },
  { kind: 'a CommonJS TypeScript project', entry: 'app.ts', deep: 'lib/auth/tokens.ts', files: CJS_TYPESCRIPT },
  { kind: 'an ES module JavaScript project', entry: 'app.js', deep: 'lib/auth/tokens.js', files: ESM_JAVASCRIPT },
  { kind: 'a CommonJS JavaScript project', entry: 'app.js', deep: 'lib/auth/tokens.js', files: CJS_JAVASCRIPT },
];

describe.each(PROJECTS)('tessera dev in $kind', ({ entry, deep, files }) => {
  let folder: string;
  let dev: RunningCli;

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-dev-watch-'));
    linkPackages(folder);
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(folder, file)), { recursive: true });
      fs.writeFileSync(path.join(folder, file), text);
    }
    // DEBUG=tessera: dev says which folders it watches and when the next server stands by.
    dev = await startNode([PACKAGED_BIN, 'dev', entry, '--port', String(await freePort())], { DEBUG: 'tessera' }, CLI_TIMEOUT_MS, folder);
  }, CLI_TIMEOUT_MS);

  afterAll(async () => {
    await dev?.stop();
    if (folder !== undefined) removeFolder(folder);
  });

  it(`serves an edit of ${deep}, two folders below the entry, within 2 s`, async () => {
    expect(await waitForTitle(dev.url, 'first', CLI_TIMEOUT_MS)).toBe('first');
    // The child reports the files it loaded once it serves; the next child stands by (node, tsx and the runtime
    // loaded) once the first serves. A user's first edit comes later than both.
    await waitForOutput(dev, new RegExp(`^tessera dev: watching .*${path.dirname(deep)}`, 'm'));
    await waitForOutput(dev, /^tessera dev: the next server stands by$/m);
    fs.writeFileSync(path.join(folder, deep), fs.readFileSync(path.join(folder, deep), 'utf8').replace("'first'", "'second'"));
    const title = await waitForTitle(dev.url, 'second', RELOAD_BOUND_MS);
    expect({ title, output: dev.stdout() }).toEqual({ title: 'second', output: expect.stringContaining(`tessera dev: ${deep} changed, restarting\n`) });
  }, CLI_TIMEOUT_MS);
});
