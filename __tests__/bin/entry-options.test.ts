// No silent ignore (issue 31): what an entry default-exports is the server options, checked by `tessera start`, `dev`
// and `build` as createServer checks them; setup errors point at the offending key in the user's file, and a syntax
// error during `build` is reported as one. Run by the packaged CLI in an ES module project like `tessera init`'s.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { linkPackages, REPO_ROOT, removeFolder } from '../helpers/bundles';
import { PACKAGED_BIN, runNode } from '../helpers/spawn-cli';

const CLI_TIMEOUT_MS = 60_000;

const HEAD = `import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createServer, crud, defineService, type ServerOptions } from 'tessera-api';

const notes = sqliteTable('notes', { id: text('id').primaryKey(), title: text('title').notNull() });
const client = new Database(':memory:');
client.exec('CREATE TABLE notes (id TEXT PRIMARY KEY, title TEXT NOT NULL)');
export const api = defineService({ name: 'api', db: drizzle(client) });
`;

const ENTRIES: Record<string, string> = {
  // Line 12, column 3: the misspelt key.
  'misspelt.ts': `${HEAD}
export default {
  titel: 'Notes',
} as ServerOptions;
`,
  'express-app.ts': `${HEAD}
export default createServer({ title: 'Notes' });
`,
  // Line 16, column 5: fields.titel.
  'bad-field.ts': `${HEAD}
api.resource({ name: 'notes', table: notes, id: notes.id }).use(
  crud({
    access: 'public',
    fields: {
      id: { read: true },
      titel: { read: true },
    },
  }),
);
`,
  // Line 12, column 3: the key createServer refuses, in the application's own call.
  'own-server.ts': `${HEAD}
const app = createServer({
  titel: 'Notes',
} as ServerOptions);
app.listen(0);
`,
  'syntax.ts': `${HEAD}
const limit: number = ;
`,
};

function stderrLines(stderr: string): string[] {
  return stderr.split('\n').filter((line) => line !== '');
}

describe('the entry as tessera start, dev and build read it', () => {
  let folder: string;

  beforeAll(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-entry-options-'));
    linkPackages(folder);
    fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name: 'entry-options', private: true, type: 'module' }));
    fs.copyFileSync(path.join(REPO_ROOT, 'templates/init/tsconfig.json'), path.join(folder, 'tsconfig.json'));
    for (const [file, text] of Object.entries(ENTRIES)) fs.writeFileSync(path.join(folder, file), text);
  });
  afterAll(() => removeFolder(folder));

  const tessera = (args: string[]) => runNode([PACKAGED_BIN, ...args], {}, CLI_TIMEOUT_MS, folder);

  /** `tessera dev` keeps watching after its server failed: its stderr once it says so, then stopped. */
  function devUntilStopped(entry: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [PACKAGED_BIN, 'dev', entry, '--port', '1'], { cwd: folder, stdio: ['ignore', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      const timer = setTimeout(() => child.kill('SIGKILL'), CLI_TIMEOUT_MS - 5_000);
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.includes('waiting for a change')) child.kill('SIGTERM');
      });
      child.once('error', reject);
      child.once('exit', () => {
        clearTimeout(timer);
        if (stdout.includes('tessera dev: the server stopped (exit code 1); waiting for a change to restart')) resolve(stderr);
        else reject(new Error(`tessera dev did not report its failed server:\n${stdout}\n${stderr}`));
      });
    });
  }

  const MISSPELT = ['tessera: entry misspelt.ts: titel is not a server option (did you mean title?)', '  at misspelt.ts:12:3'];

  it.each([['start'], ['build']])('%s: an unknown server option is one line, pointing at the key', async (command) => {
    const result = await tessera([command, 'misspelt.ts', ...(command === 'build' ? ['--no-typecheck'] : [])]);
    expect({ code: result.code, stderr: stderrLines(result.stderr) }).toEqual({ code: 1, stderr: MISSPELT });
  }, CLI_TIMEOUT_MS);

  it('dev: an unknown server option is the same line, and dev waits for a change', async () => {
    expect(stderrLines(await devUntilStopped('misspelt.ts'))).toEqual(MISSPELT);
  }, CLI_TIMEOUT_MS);

  it('refuses an Express application as the default export, saying what to export', async () => {
    const result = await tessera(['start', 'express-app.ts']);
    expect({ code: result.code, stderr: stderrLines(result.stderr) }).toEqual({
      code: 1,
      stderr: [
        'tessera: entry express-app.ts default-exports an Express application: export default the options you would pass to createServer ({ title, context, … }), from which tessera builds the server',
      ],
    });
  }, CLI_TIMEOUT_MS);

  it("points a crud setup error at the field's line in the entry, not at the .use( call", async () => {
    const result = await tessera(['start', 'bad-field.ts']);
    expect({ code: result.code, stderr: stderrLines(result.stderr) }).toEqual({
      code: 1,
      stderr: ['tessera: entry bad-field.ts failed to load: api.notes: fields.titel is not a column of table "notes"', '  at bad-field.ts:16:7'],
    });
  }, CLI_TIMEOUT_MS);

  it("points createServer's unknown key at its line in the application's own call", async () => {
    const result = await tessera(['start', 'own-server.ts']);
    expect({ code: result.code, stderr: stderrLines(result.stderr) }).toEqual({
      code: 1,
      stderr: ['tessera: entry own-server.ts failed to load: titel is not a server option (did you mean title?)', '  at own-server.ts:12:3'],
    });
  }, CLI_TIMEOUT_MS);

  it('build: reports a syntax error as one, with its file and line, not as a type error', async () => {
    const result = await tessera(['build', 'syntax.ts', '--out', 'dist']);
    expect({ code: result.code, stderr: stderrLines(result.stderr) }).toEqual({
      code: 1,
      stderr: ['tessera: entry syntax.ts failed to load: SyntaxError: Unexpected ";"', '  at syntax.ts:11:23'],
    });
    expect(fs.existsSync(path.join(folder, 'dist'))).toBe(false);
  }, CLI_TIMEOUT_MS);
});
