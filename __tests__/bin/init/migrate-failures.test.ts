// db.mjs (written by tessera init) when drizzle-kit migrate fails without a word, as drizzle-kit 0.31 does for any
// error of the database: on a database that was only ever migrated, its line must not blame push alone; it names
// a migration the existing rows refuse as well (docs/databases.md). The pushed-database case: scaffold.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { temporaryFolder } from '../../helpers/bundles';
import { runGroup } from '../../helpers/process-group';
import { spawnCli } from '../../helpers/spawn-cli';

const STEP_TIMEOUT_MS = 120_000;

describe('npm run db:migrate of a tessera init project', () => {
  const folder = temporaryFolder('init-migrate');
  let project: string;
  const npm = (args: string[]) => runGroup('npm', args, project, {});

  beforeAll(async () => {
    project = path.join(folder.path, 'my-api');
    const result = await spawnCli(['init', project]);
    if (result.code !== 0) throw new Error(`tessera init failed:\n${result.stderr}`);
  }, STEP_TIMEOUT_MS);

  it('names both usual causes when a migration cannot apply to the rows of a migrated database', async () => {
    expect(await npm(['run', 'db:generate'])).toMatchObject({ code: 0 });
    expect(await npm(['run', 'db:migrate'])).toMatchObject({ code: 0 });
    const database = new Database(path.join(project, 'data.db'));
    database.prepare("INSERT INTO notes (id, title) VALUES ('1', 'kept')").run();
    database.close();
    // A required column without a default, on a table that has a row.
    const schema = fs.readFileSync(path.join(project, 'schema.ts'), 'utf8');
    fs.writeFileSync(path.join(project, 'schema.ts'), schema.replace(/^ {2}content: .*\n/m, (line) => `${line}  sku: text('sku').notNull(),\n`));
    expect(await npm(['run', 'db:generate'])).toMatchObject({ code: 0 });

    const failed = await npm(['run', 'db:migrate']);
    expect(failed.code).not.toBe(0);
    expect(failed.stderr.split('\n').filter((line) => line.startsWith('db: '))).toEqual([
      "db: drizzle-kit migrate failed (exit code 1) without saying why; likely a migration that cannot apply to the rows already there (a NOT NULL column without a default, a unique index over duplicates: run the new drizzle/*.sql by hand to see the database's error), or a database drizzle-kit push made, which records no migrations (start it from the migrations, or record them as applied)",
    ]);
  }, 3 * STEP_TIMEOUT_MS);
});
