// The project `tessera init` writes, run through its npm scripts as a user does (issue 28): `npm run dev` pushes
// the schema and stops when drizzle-kit fails, even where drizzle-kit exits 0; `npm start` never pushes, so a
// database without the table stops with the one line naming it; `db:generate` + `db:migrate` make the production
// database; a pushed database cannot be migrated until its migrations are recorded as applied (docs/databases.md).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { REPO_ROOT, temporaryFolder } from '../../helpers/bundles';
import { freePort } from '../../helpers/free-port';
import { runGroup, startGroup } from '../../helpers/process-group';
import { request } from '../../helpers/request';
import { spawnCli } from '../../helpers/spawn-cli';

const STEP_TIMEOUT_MS = 120_000;
const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8');

/** The first fenced block of the README after `marker`. */
function readmeBlock(marker: string): string {
  const match = /```\w*\n([\s\S]*?)```/.exec(readme.slice(readme.indexOf(marker)));
  if (match === null) throw new Error(`no code block after "${marker}"`);
  return match[1];
}

describe('the project tessera init writes', () => {
  // node_modules beside the project: the repository's packages, tessera-api linked to the repository.
  const folder = temporaryFolder('init');
  let project: string;
  let initOutput: string;
  const npm = (args: string[], env: Record<string, string> = {}) => runGroup('npm', args, project, env);

  beforeAll(async () => {
    // What npm puts on an installed package's scripts' PATH: its commands, tessera here.
    fs.mkdirSync(path.join(folder.path, 'node_modules', '.bin'));
    fs.symlinkSync(path.join(REPO_ROOT, 'lib', 'bin', 'tessera.js'), path.join(folder.path, 'node_modules', '.bin', 'tessera'));
    project = path.join(folder.path, 'my-api');
    const result = await spawnCli(['init', project]);
    if (result.code !== 0) throw new Error(`tessera init failed:\n${result.stderr}`);
    initOutput = result.stdout;
  }, STEP_TIMEOUT_MS);

  function columnsOf(file: string): unknown[] {
    const database = new Database(path.join(project, file), { readonly: true });
    try {
      return database.prepare("SELECT name FROM pragma_table_info('notes')").all();
    } finally {
      database.close();
    }
  }

  it('prints its files, the tessera-api it depends on (this checkout) and what to run next', () => {
    expect(initOutput.split('\n')).toEqual([
      `tessera init: ${project}: package.json, app.ts, schema.ts, drizzle.config.ts, db.mjs, tsconfig.json, .gitignore, pnpm-workspace.yaml, .npmrc`,
      `tessera-api: file:${REPO_ROOT}, the folder this tessera runs from`,
      'Next:',
      `  cd ${project}`,
      '  npm install',
      '  npm run dev',
      '',
    ]);
    const manifest = JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; scripts: Record<string, string> };
    expect(manifest.dependencies['tessera-api']).toBe(`file:${REPO_ROOT}`);
    // A folder is installed as a copy, sharing the project's drizzle-orm.
    expect(fs.readFileSync(path.join(project, '.npmrc'), 'utf8')).toBe('install-links=true\n');
    expect(manifest.scripts).toEqual({
      dev: 'node db.mjs push && tessera dev app.ts',
      start: 'tessera start app.ts',
      build: 'tessera build app.ts --out dist',
      'db:push': 'node db.mjs push',
      'db:generate': 'node db.mjs generate',
      'db:migrate': 'node db.mjs migrate',
    });
  });

  it('quotes a folder with spaces in what to run next, so that the line can be pasted', async () => {
    const spaced = path.join(folder.path, "Bad Name's api");
    const result = await spawnCli(['init', spaced]);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toContain(`  cd '${spaced.replace("'", "'\\''")}'`);
  }, STEP_TIMEOUT_MS);

  it('refuses a folder that is not empty, writing nothing', async () => {
    const result = await spawnCli(['init', project]);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`tessera: ${project} is not an empty folder: choose a new one (tessera init my-api)\n`);
  }, STEP_TIMEOUT_MS);

  it('has no query at the top level of app.ts: npm start on a database without the table stops with the line naming it', async () => {
    expect(fs.readFileSync(path.join(project, 'app.ts'), 'utf8')).not.toContain('await ');
    const result = await npm(['start'], { DATABASE_FILE: 'empty.db', PORT: String(await freePort()) });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('tessera: api.notes: table "notes" does not exist: create them with drizzle-kit');
    expect(result.stdout).not.toContain('Tessera listening');
  }, STEP_TIMEOUT_MS);

  it('serves with npm run dev, which creates the table with drizzle-kit push first', async () => {
    const dev = await startGroup('npm', ['run', 'dev'], project, { PORT: String(await freePort()) });
    try {
      const created = await request(`${dev.url}/api/notes`, { method: 'POST', body: { title: 'Hello' } });
      expect(created).toMatchObject({ status: 201, body: { title: 'Hello', content: null } });
    } finally {
      await dev.stop();
    }
  }, STEP_TIMEOUT_MS);

  it('stops npm run dev when drizzle-kit push fails without a terminal, though drizzle-kit exits 0', async () => {
    const database = new Database(path.join(project, 'data.db'));
    database.prepare("UPDATE notes SET internal = 'kept'").run();
    database.close();
    const schema = fs.readFileSync(path.join(project, 'schema.ts'), 'utf8');
    // Dropping a column that holds data: drizzle-kit must ask, and cannot.
    fs.writeFileSync(path.join(project, 'schema.ts'), schema.replace(/^ {2}internal: .*\n/m, ''));
    try {
      const result = await npm(['run', 'dev'], { PORT: String(await freePort()) });
      expect(result.code).not.toBe(0);
      expect(result.stderr).toContain('Error: Interactive prompts require a TTY terminal');
      expect(result.stderr).toContain('db: drizzle-kit push printed an error (above) and exited 0: stopping here');
      expect(result.stdout).not.toContain('Tessera listening');
    } finally {
      fs.writeFileSync(path.join(project, 'schema.ts'), schema);
    }
  }, STEP_TIMEOUT_MS);

  it('makes a production database from migrations (db:generate, db:migrate), which npm start serves, with the README custom action', async () => {
    expect(await npm(['run', 'db:generate'])).toMatchObject({ code: 0 });
    expect(fs.readdirSync(path.join(project, 'drizzle')).filter((file) => file.endsWith('.sql'))).toHaveLength(1);
    expect(await npm(['run', 'db:migrate'], { DATABASE_FILE: 'production.db' })).toMatchObject({ code: 0 });
    const app = fs.readFileSync(path.join(project, 'app.ts'), 'utf8');
    fs.writeFileSync(path.join(project, 'app.ts'), `${app}\n${readmeBlock('For example, a custom action in `app.ts`:')}`);
    try {
      const server = await startGroup('npm', ['start'], project, { DATABASE_FILE: 'production.db', PORT: String(await freePort()) });
      try {
        expect(await request(`${server.url}/api/notes`, { method: 'POST', body: { title: 'Shipped' } })).toMatchObject({ status: 201 });
        expect(await request(`${server.url}/api/api/recent`, { method: 'POST', body: {} })).toMatchObject({ status: 200, body: ['Shipped'] });
      } finally {
        await server.stop();
      }
      // The README's action type-checks as the build checks it.
      expect(await npm(['run', 'build'])).toMatchObject({ code: 0 });
    } finally {
      fs.writeFileSync(path.join(project, 'app.ts'), app);
    }
  }, 3 * STEP_TIMEOUT_MS);

  it('says in one line that drizzle-kit is missing where it is not installed (npm install --omit=dev)', async () => {
    const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-no-drizzle-kit-'));
    try {
      fs.copyFileSync(path.join(project, 'db.mjs'), path.join(bare, 'db.mjs'));
      expect(await runGroup('node', ['db.mjs', 'migrate'], bare)).toEqual({
        code: 1,
        stdout: '',
        stderr: 'db: drizzle-kit is not installed: it is a dev dependency (npm install, not npm install --omit=dev)\n',
      });
    } finally {
      fs.rmSync(bare, { recursive: true, force: true });
    }
  }, STEP_TIMEOUT_MS);

  it("stops db:migrate of a database push made, naming the likely cause; recorded as applied (the docs' recipe), it migrates", async () => {
    const failed = await npm(['run', 'db:migrate']);
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain('or a database drizzle-kit push made, which records no migrations (start it from the migrations, or record them as applied)');

    const journal = JSON.parse(fs.readFileSync(path.join(project, 'drizzle', 'meta', '_journal.json'), 'utf8')) as { entries: { when: number }[] };
    const database = new Database(path.join(project, 'data.db'));
    database.exec('CREATE TABLE IF NOT EXISTS __drizzle_migrations (id INTEGER PRIMARY KEY, hash text NOT NULL, created_at numeric)');
    database.prepare('INSERT INTO __drizzle_migrations (hash, created_at) VALUES (?, ?)').run('recorded by hand', journal.entries[0].when);
    database.close();
    expect(await npm(['run', 'db:migrate'])).toMatchObject({ code: 0 });

    // The next change comes by migration, on both databases.
    const schema = fs.readFileSync(path.join(project, 'schema.ts'), 'utf8');
    fs.writeFileSync(path.join(project, 'schema.ts'), schema.replace(/^ {2}content: .*\n/m, (line) => `${line}  tags: text('tags'),\n`));
    expect(await npm(['run', 'db:generate'])).toMatchObject({ code: 0 });
    for (const file of ['data.db', 'production.db']) {
      expect(await npm(['run', 'db:migrate'], { DATABASE_FILE: file })).toMatchObject({ code: 0 });
      expect(columnsOf(file)).toContainEqual({ name: 'tags' });
    }
  }, 3 * STEP_TIMEOUT_MS);
});
