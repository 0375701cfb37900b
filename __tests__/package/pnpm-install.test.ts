// The packed tarball under pnpm's strict layout (pnpm from the devDependencies): a package sees only what it depends
// on, so a bundle that named a path inside ajv's folder failed there (issue 28). `pnpm install` runs better-sqlite3's
// and esbuild's install scripts only by the approvals `tessera init` writes; then the init project's start, build and
// bundle (deployed with its node_modules), and an ES module and a CommonJS app served by tessera start and by their
// bundles, all alike.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/free-port';
import { CJS_APP, currentNode, ESM_APP, exercise, EXERCISE_STATUSES, exerciseInitProject, initProject, INSTALL_TIMEOUT_MS, packTarball, REPO_ROOT, run, serve, STEP_TIMEOUT_MS, writeFiles } from './installed-apps';

const PNPM = path.join(REPO_ROOT, 'node_modules', '.bin', 'pnpm');
/** pnpm's package store, kept between runs beside the other caches. */
const STORE = path.join(REPO_ROOT, 'node_modules', '.cache', 'tessera', 'pnpm-store');

describe('Tessera installed from its tarball with pnpm (strict layout)', () => {
  const node = currentNode();
  let root: string;
  let project: string;
  let started: number;

  beforeAll(() => {
    started = Date.now();
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-pnpm-'));
    project = path.join(root, 'my-api');
    initProject(project, packTarball(root));
    // Fails (ERR_PNPM_IGNORED_BUILDS) should a package with an install script lack its approval.
    run(PNPM, ['install', '--store-dir', STORE, '--engine-strict'], project, node);
    process.stdout.write(`pnpm ${run(PNPM, ['--version'], project, node).trim()}: install ${Math.round((Date.now() - started) / 1000)} s\n`);
    writeFiles(path.join(project, 'esm-app'), ESM_APP);
    writeFiles(path.join(project, 'cjs-app'), CJS_APP);
  }, INSTALL_TIMEOUT_MS);

  afterAll(() => {
    if (root !== undefined) fs.rmSync(root, { recursive: true, force: true });
    if (started !== undefined) process.stdout.write(`pnpm: ${Math.round((Date.now() - started) / 1000)} s in all\n`);
  });

  it('lays packages out strictly: the project sees tessera-api, not its dependencies', () => {
    const fromProject = createRequire(path.join(project, 'package.json'));
    expect(fs.realpathSync(path.join(project, 'node_modules', 'tessera-api'))).toContain(`${path.sep}.pnpm${path.sep}`);
    expect(() => fromProject.resolve('tessera-api/validation-runtime')).not.toThrow();
    expect(() => fromProject.resolve('ajv')).toThrow(/Cannot find module/);
    expect(() => fromProject.resolve('ajv-formats/dist/formats')).toThrow(/Cannot find module/);
  });

  it("makes the init project's table (pnpm run db:push), serves it with pnpm start, then from its bundle deployed with node_modules", async () => {
    run(PNPM, ['run', 'db:push'], project, node, STEP_TIMEOUT_MS);
    const server = await serve(PNPM, ['start'], project, { ...node.env, PORT: String(await freePort()) });
    try {
      await exerciseInitProject(server.url);
    } finally {
      await server.stop();
    }
    run(PNPM, ['run', 'build'], project, node, STEP_TIMEOUT_MS);
    const deployed = path.join(root, 'deployed');
    fs.mkdirSync(deployed);
    for (const file of ['package.json', 'data.db']) fs.copyFileSync(path.join(project, file), path.join(deployed, file));
    fs.cpSync(path.join(project, 'dist'), path.join(deployed, 'dist'), { recursive: true });
    fs.cpSync(path.join(project, 'node_modules'), path.join(deployed, 'node_modules'), { recursive: true, verbatimSymlinks: true });
    const bundle = await serve(process.execPath, ['--disallow-code-generation-from-strings', 'dist/server.js'], deployed, { PORT: String(await freePort()) });
    try {
      await exerciseInitProject(bundle.url);
    } finally {
      await bundle.stop();
    }
  }, 4 * STEP_TIMEOUT_MS);

  it.each([
    ['a "type": "module" TypeScript app', 'esm-app', 'app.ts'],
    ['a CommonJS JavaScript app', 'cjs-app', 'app.js'],
  ])('serves %s alike through tessera start and its bundle', async (_kind, folder, entry) => {
    const app = path.join(project, folder);
    const tessera = path.join(project, 'node_modules', '.bin', 'tessera');
    const served = await serve(tessera, ['start', entry, '--port', String(await freePort())], app, { ...node.env, DATABASE_FILE: 'start.db' });
    let answers: Awaited<ReturnType<typeof exercise>>;
    try {
      answers = await exercise(served.url);
    } finally {
      await served.stop();
    }
    run(tessera, ['build', entry, '--out', 'dist'], app, node, STEP_TIMEOUT_MS);
    const bundle = await serve(process.execPath, ['--disallow-code-generation-from-strings', 'dist/server.js'], app, { PORT: String(await freePort()), DATABASE_FILE: 'bundle.db' });
    try {
      expect(answers.map((answer) => answer.status)).toEqual(EXERCISE_STATUSES);
      expect(await exercise(bundle.url)).toEqual(answers);
    } finally {
      await bundle.stop();
    }
  }, 3 * STEP_TIMEOUT_MS);
});
