// Tessera as a user gets it: `npm pack`, then the tarball installed from outside the repository (with drizzle-orm,
// better-sqlite3 and drizzle-kit from the registry, `--engine-strict`) into a project `tessera init` wrote. Three
// applications run there: the init project itself (`npm run dev`), a "type": "module" TypeScript app with top-level
// await and a CommonJS JavaScript app. The project's own tsc accepts the TypeScript ones and catches a misuse of
// Tessera's API. Each app is served by `tessera start` (compiled and --no-compiler) and built with `tessera build`
// (type check included); its bundle, copied away with only package.json and node_modules, answers under
// --disallow-code-generation-from-strings exactly as the two start modes do. The production install (`--omit=dev`)
// holds no CLI or docs-only package and still serves the docs pages (issue 28). Node 22 and 24: node-versions.test.ts;
// pnpm: pnpm-install.test.ts.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/free-port';
import { runNode, startNode, type RunningCli } from '../helpers/spawn-cli';
import { CJS_APP, currentNode, ESM_APP, exercise, EXERCISE_STATUSES, exerciseInitProject, initProject, INSTALL_TIMEOUT_MS, packTarball, run, serve, STEP_TIMEOUT_MS, writeFiles } from './installed-apps';

/** The ES module app's own TypeScript: the native compiler, which has a tsc and no compiler API. */
const ESM_APP_TYPESCRIPT = '~7.0.2';

/** Packages only the CLI's development commands (tsx, esbuild, TypeScript), the old argument parser or the docs pages' sources need. */
const NOT_IN_PRODUCTION = ['tsx', 'esbuild', 'typescript', 'yargs', '@scalar/api-reference', 'swagger-ui-dist', 'swagger-ui-express', 'marked', '@mdx-js/mdx'];

/** Every file's size under `folder`, in bytes (symbolic links not followed). */
function apparentSize(folder: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) total += apparentSize(full);
    else if (entry.isFile()) total += fs.statSync(full).size;
  }
  return total;
}

describe('Tessera installed from its packed tarball into a project outside the repository', () => {
  let root: string;
  let project: string;
  let tessera: string;
  let tarball: string;

  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-packaged-'));
    tarball = packTarball(root);
    project = path.join(root, 'my-api');
    // Tessera is not on the registry yet: the project takes it from the tarball; the rest from the registry.
    initProject(project, tarball);
    const started = Date.now();
    // --engine-strict: every package of the project accepts this Node.js (issue 28: engines >=20.19 and dependencies to match).
    run('npm', ['install', '--no-audit', '--no-fund', '--engine-strict'], project, currentNode());
    process.stdout.write(`npm install --engine-strict on Node ${process.version}: ${Math.round((Date.now() - started) / 1000)} s\n`);
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

  it('packs compiled JavaScript with declarations, an ES module entry and the docs UIs\' browser files, and no TypeScript source or test', () => {
    const listed = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter((line) => line !== '');
    for (const file of ['package/lib/runtime/index.js', 'package/lib/runtime/index.d.ts', 'package/lib/esm/index.mjs', 'package/lib/esm/index.d.mts', 'package/lib/esm/types/runtime/index.d.mts', 'package/lib/bin/tessera.js', 'package/lib/templates/init/app.ts', 'package/lib/runtime/validation-runtime.js', 'package/lib/runtime/docs/vendor/scalar.js.gz', 'package/lib/runtime/docs/vendor/swagger-ui-bundle.js.gz', 'package/lib/runtime/docs/vendor/README.txt']) {
      expect(listed).toContain(file);
    }
    expect(listed.filter((file) => /\.ts$/.test(file) && !/\.d\.m?ts$/.test(file) && !file.includes('/templates/'))).toEqual([]);
    expect(listed.filter((file) => file.includes('__tests__') || file.includes('fixtures/'))).toEqual([]);
  });

  it('writes the tarball it was installed from as the dependency of a project its init makes', async () => {
    const result = await runNode([tessera, 'init', 'second-api'], {}, STEP_TIMEOUT_MS, project);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.split('\n')[1]).toBe(`tessera-api: file:${tarball}, the tarball this tessera was installed from`);
    const written = JSON.parse(fs.readFileSync(path.join(project, 'second-api', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(written.dependencies['tessera-api']).toBe(`file:${tarball}`);
  }, STEP_TIMEOUT_MS);

  it('serves the project `tessera init` wrote with npm run dev (its table created by drizzle-kit push), docs pages included, and builds it', async () => {
    const server = await serve('npm', ['run', 'dev'], project, { PORT: String(await freePort()) });
    try {
      await exerciseInitProject(server.url);
    } finally {
      await server.stop();
    }
    const built = await runNode([tessera, 'build', 'app.ts', '--out', 'dist'], {}, STEP_TIMEOUT_MS, project);
    expect(built).toMatchObject({ code: 0, stderr: '' });
    expect(fs.existsSync(path.join(project, 'dist', 'entry.mjs'))).toBe(true);
  }, 3 * STEP_TIMEOUT_MS);

  it('installs for production (--omit=dev) without the CLI-only and docs-only packages, and its bundle serves the docs pages offline', async () => {
    // The project as production gets it: package.json, the lockfile and the bundle; node_modules pruned as
    // `npm install --omit=dev` would install it (pruned, not reinstalled: better-sqlite3 keeps its compiled module).
    const production = path.join(root, 'production');
    fs.mkdirSync(production);
    // The SQLite database travels with it (npm run dev's drizzle-kit push made it).
    for (const file of ['package.json', 'package-lock.json', 'data.db']) fs.copyFileSync(path.join(project, file), path.join(production, file));
    fs.cpSync(path.join(project, 'dist'), path.join(production, 'dist'), { recursive: true });
    fs.cpSync(path.join(project, 'node_modules'), path.join(production, 'node_modules'), { recursive: true, verbatimSymlinks: true });
    run('npm', ['prune', '--omit=dev', '--no-audit', '--no-fund'], production, currentNode());
    const packages = run('npm', ['ls', '--all', '--parseable', '--omit=dev'], production, currentNode()).trim().split('\n').slice(1);
    const megabytes = apparentSize(path.join(production, 'node_modules')) / 1e6;
    const compiled = apparentSize(path.join(production, 'node_modules', 'better-sqlite3', 'build')) / 1e6;
    process.stdout.write(`production install: ${packages.length} packages, ${megabytes.toFixed(1)} MB (better-sqlite3's build/ ${compiled.toFixed(1)} MB of it)\n`);
    const names = new Set(packages.map((folder) => path.relative(path.join(production, 'node_modules'), folder).split(`${path.sep}node_modules${path.sep}`).pop()!.split(path.sep).join('/')));
    expect(NOT_IN_PRODUCTION.filter((name) => names.has(name))).toEqual([]);
    expect(names.has('tessera-api')).toBe(true);

    const bundle = await startNode(['--disallow-code-generation-from-strings', 'dist/server.js'], { PORT: String(await freePort()) }, STEP_TIMEOUT_MS, production);
    try {
      await exerciseInitProject(bundle.url);
    } finally {
      await bundle.stop();
    }
    // The TypeScript entry itself needs tsx, a development tool: one line says so.
    for (const file of ['app.ts', 'schema.ts']) fs.copyFileSync(path.join(project, file), path.join(production, file));
    const started = await runNode([path.join(production, 'node_modules', '.bin', 'tessera'), 'start', 'app.ts'], { PORT: String(await freePort()) }, STEP_TIMEOUT_MS, production);
    expect(started).toMatchObject({
      code: 1,
      stderr: 'tessera: a TypeScript entry (a built bundle, or a JavaScript entry, runs without it) needs the package tsx, which is not installed: npm install --save-dev tsx\n',
    });
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

      expect((answers.compiled as { status: number }[]).map((answer) => answer.status)).toEqual(EXERCISE_STATUSES);
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
