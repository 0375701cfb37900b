// `node db.mjs push|generate|migrate [flags]` (npm run db:push, db:generate, db:migrate): runs drizzle-kit, and
// fails when it fails, so `npm run dev` never serves a database drizzle-kit could not update. drizzle-kit 0.31 prints
// some failures and still exits 0 (a push that would lose data, or a generate that must ask about a rename, with no
// terminal to ask on), and `migrate` can exit 1 without a word.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

const [command = 'push', ...flags] = process.argv.slice(2);
const MIGRATE_HINT =
  " without saying why; likely a migration that cannot apply to the rows already there (a NOT NULL column without a default, a unique index over duplicates: run the new drizzle/*.sql by hand to see the database's error), or a database drizzle-kit push made, which records no migrations (start it from the migrations, or record them as applied)";
let bin;
try {
  bin = path.join(path.dirname(createRequire(import.meta.url).resolve('drizzle-kit')), 'bin.cjs');
} catch {
  fail('drizzle-kit is not installed: it is a dev dependency (npm install, not npm install --omit=dev)');
}

// stdin and stdout stay the terminal's, so drizzle-kit can still ask its questions there; stderr is read.
const result = spawnSync(process.execPath, [bin, command, ...flags], { stdio: ['inherit', 'inherit', 'pipe'] });
const errors = result.stderr?.toString('utf8') ?? '';
process.stderr.write(errors);

// An error drizzle-kit caught and printed (`Error: …`, `SqliteError: …`), not a Node warning (`(node:1) …Warning`).
const printedError = /^\w*Error\b/m.test(errors);
if (result.error !== undefined) fail(`drizzle-kit ${command} did not run: ${result.error.message}`);
if (result.status !== 0) {
  // drizzle-kit 0.31's migrate exits 1 without printing the database's error: name what usually causes that.
  const hint = command === 'migrate' && errors.trim() === '' ? MIGRATE_HINT : '';
  fail(`drizzle-kit ${command} failed (exit code ${result.status ?? result.signal})${hint}`);
}
if (printedError) fail(`drizzle-kit ${command} printed an error (above) and exited 0: stopping here`);

function fail(reason) {
  process.stderr.write(`db: ${reason}\n`);
  process.exit(1);
}
