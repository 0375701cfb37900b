// Starting while the database cannot be reached (issue 32): `tessera start`, `tessera dev`, a bundle and
// `--workers` (TESSERA_WORKERS for a bundle) all behave alike: one line naming the service, the dialect,
// host:port/database and the driver's reason in fixed words, exit code 1 (dev waits for a change instead), and never
// the password, SQL or parameters. The orchestrator restarts the process (docs/production.md says why not retry).
import { spawn } from 'node:child_process';
import { buildCli, MYSQL_URL, POSTGRES_URL, runBundle, REPO_ROOT, temporaryFolder } from '../helpers/bundles';
import { freePort } from '../helpers/free-port';
import { spawnCli, type CliResult } from '../helpers/spawn-cli';

const ENTRY = '__tests__/bin/entries/database-app.ts';
const PASSWORD = 'not-the-password-7f3a';
const FORBIDDEN = [PASSWORD, /select/i, /Failed query/, /params/i, /\n\s+at /];

type Dialect = 'mysql' | 'postgres';

interface Case {
  name: string;
  url: (dialect: Dialect) => Promise<string>;
  reason: Record<Dialect, string>;
}

function withUrl(base: string, change: (url: URL) => void): string {
  const url = new URL(base);
  change(url);
  return url.toString();
}

const SHARED: Record<Dialect, string> = { mysql: MYSQL_URL, postgres: POSTGRES_URL };

const CASES: Case[] = [
  {
    name: 'nothing listens on the port (down, or a wrong port)',
    url: async (dialect) => {
      const port = await freePort();
      return withUrl(SHARED[dialect], (url) => (url.port = String(port)));
    },
    reason: { mysql: 'connection refused (ECONNREFUSED)', postgres: 'connection refused (ECONNREFUSED)' },
  },
  {
    name: 'the database does not exist',
    url: async (dialect) => withUrl(SHARED[dialect], (url) => (url.pathname = '/tessera_no_such_database')),
    reason: { mysql: 'no such database (1049)', postgres: 'no such database (3D000)' },
  },
  {
    // The shared PostgreSQL trusts local connections (no password is checked): an unknown role is refused instead.
    name: 'the credentials are refused',
    url: async (dialect) =>
      withUrl(SHARED[dialect], (url) => {
        if (dialect === 'postgres') url.username = 'tessera_no_such_role';
        url.password = PASSWORD;
      }),
    reason: { mysql: 'authentication failed (wrong user name or password) (1045)', postgres: 'authentication failed (no such role, or not allowed to connect) (28000)' },
  },
];

/** The one line every mode prints for `url`. */
function expectedLine(dialect: Dialect, url: string, reason: string): string {
  const { hostname, port, pathname } = new URL(url);
  return `tessera: the database of service hang (${dialect} at ${hostname}:${port}${pathname}) cannot be reached: ${reason}`;
}

function expectOneLine(result: CliResult, line: string): void {
  expect(result.code).toBe(1);
  expect(result.stderr.trim().split('\n')).toEqual([line]);
  for (const forbidden of FORBIDDEN) expect(result.stdout + result.stderr).not.toMatch(forbidden);
}

/** `tessera dev` keeps running after its child failed: its output until the child's failure line, then it is stopped. */
function devOutput(args: readonly string[], env: Record<string, string>, until: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/tessera.js', ...args], { cwd: REPO_ROOT, env: { ...process.env, PORT: undefined, DEBUG: undefined, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`tessera dev printed no ${until} within 60 s:\n${output}`));
    }, 60_000);
    const collect = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (!until.test(output)) return;
      clearTimeout(timer);
      child.once('close', () => resolve(output));
      child.kill('SIGTERM');
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
  });
}

describe('starting while the database cannot be reached', () => {
  const folder = temporaryFolder('unreachable');
  /** One bundle per dialect: the entry's tables differ, and a bundle refuses definitions it was not built from. */
  const bundle = (dialect: Dialect) => `${folder.path}/dist-${dialect}`;

  beforeAll(async () => {
    for (const dialect of ['mysql', 'postgres'] as const) {
      const result = await buildCli(ENTRY, bundle(dialect), [], { TESSERA_TEST_DIALECT: dialect });
      if (result.code !== 0) throw new Error(`tessera build failed:\n${result.stderr}`);
    }
  }, 180_000);

  describe.each<Dialect>(['mysql', 'postgres'])('on %s', (dialect) => {
    it.each(CASES.map((each) => [each.name, each] as const))('tessera start and a bundle exit 1 with one line when %s', async (_name, each) => {
      const url = await each.url(dialect);
      const env = { TESSERA_TEST_DIALECT: dialect, TESSERA_TEST_DATABASE_URL: url };
      const line = expectedLine(dialect, url, each.reason[dialect]);
      expectOneLine(await spawnCli(['start', ENTRY, '--port', String(await freePort())], env, 60_000), line);
      expectOneLine(await runBundle(bundle(dialect), { ...env, PORT: String(await freePort()) }), line);
    }, 120_000);

    it('--workers and TESSERA_WORKERS stop the start with the same line, before any worker is forked', async () => {
      const each = CASES[0];
      const url = await each.url(dialect);
      const env = { TESSERA_TEST_DIALECT: dialect, TESSERA_TEST_DATABASE_URL: url };
      const line = expectedLine(dialect, url, each.reason[dialect]);
      for (const result of [
        await spawnCli(['start', ENTRY, '--workers', '2', '--port', String(await freePort())], env, 60_000),
        await runBundle(bundle(dialect), { ...env, TESSERA_WORKERS: '2', PORT: String(await freePort()) }),
      ]) {
        expectOneLine(result, line);
        expect(result.stdout).not.toMatch(/worker/);
      }
    }, 120_000);

    it('names a mistyped connection string as such, never repeating it: the driver reads the password into the database name', async () => {
      // The scheme without its `//`: pg and mysql2 take all that follows for the database's name.
      const mistyped = SHARED[dialect].replace('://', `:/`).replace(/^(\w+:\/)([^@/]*)@/, `$1$2:${PASSWORD}@`);
      const env = { TESSERA_TEST_DIALECT: dialect, TESSERA_TEST_DATABASE_URL: mistyped };
      for (const result of [await spawnCli(['start', ENTRY, '--port', String(await freePort())], env, 60_000), await runBundle(bundle(dialect), { ...env, PORT: String(await freePort()) })]) {
        expect(result.code).toBe(1);
        expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^tessera: the database of service hang \\(${dialect} at .*/\\(not a plain name: check the connection string\\)\\) cannot be reached: `))]);
        for (const forbidden of FORBIDDEN) expect(result.stdout + result.stderr).not.toMatch(forbidden);
      }
    }, 120_000);

    if (dialect === 'postgres') {
      it('says that the server refused SSL when the connection string asks for it, without the SQL of the statement that met it', async () => {
        const url = withUrl(SHARED.postgres, (each) => each.searchParams.set('sslmode', 'verify-full'));
        const env = { TESSERA_TEST_DIALECT: dialect, TESSERA_TEST_DATABASE_URL: url };
        const { hostname, port, pathname } = new URL(url);
        const line = `tessera: the database of service hang (postgres at ${hostname}:${port}${pathname}) cannot be reached: the server does not support SSL, which the connection asks for (sslmode, ssl)`;
        expectOneLine(await spawnCli(['start', ENTRY, '--port', String(await freePort())], env, 60_000), line);
      }, 120_000);
    }

    it('tessera dev prints the same line and waits for a change', async () => {
      const each = CASES[1];
      const url = await each.url(dialect);
      const line = expectedLine(dialect, url, each.reason[dialect]);
      const output = await devOutput(['dev', ENTRY, '--port', String(await freePort())], { TESSERA_TEST_DIALECT: dialect, TESSERA_TEST_DATABASE_URL: url }, /waiting for a change/);
      expect(output).toContain(`${line}\n`);
      for (const forbidden of FORBIDDEN) expect(output).not.toMatch(forbidden);
    }, 120_000);
  });
});
