// The packed tarball on Node 22 and 24, from the npm registry (node-<platform>-<arch>, binaries and headers), as on
// the suite's own Node 20 (packaged-install.test.ts): `npm install --engine-strict` under that Node (better-sqlite3
// compiled against its headers: npm_config_nodedir), then the init project's npm start, build and bundle, and an ES
// module and a CommonJS app served by tessera start and by their bundles, all alike (issue 28).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/free-port';
import { CJS_APP, ESM_APP, exercise, EXERCISE_STATUSES, exerciseInitProject, initProject, INSTALL_TIMEOUT_MS, NODE_RELEASES, packTarball, registryNode, run, serve, STEP_TIMEOUT_MS, writeFiles, type NodeRuntime } from './installed-apps';

describe.each(Object.values(NODE_RELEASES))('Tessera installed from its tarball on Node %s', (version) => {
  let root: string;
  let project: string;
  let node: NodeRuntime;
  let started: number;

  beforeAll(() => {
    started = Date.now();
    node = registryNode(version);
    expect(run('node', ['--version'], os.tmpdir(), node).trim()).toBe(`v${version}`);
    root = fs.mkdtempSync(path.join(os.tmpdir(), `tessera-node${version.split('.')[0]}-`));
    project = path.join(root, 'my-api');
    // init run by this Node, as a user on it would: it picks the better-sqlite3 for it.
    initProject(project, packTarball(root), node);
    run('npm', ['install', '--no-audit', '--no-fund', '--engine-strict'], project, node);
    process.stdout.write(`Node ${version}: npm install --engine-strict ${Math.round((Date.now() - started) / 1000)} s\n`);
    writeFiles(path.join(project, 'esm-app'), ESM_APP);
    writeFiles(path.join(project, 'cjs-app'), CJS_APP);
  }, INSTALL_TIMEOUT_MS);

  afterAll(() => {
    if (root !== undefined) fs.rmSync(root, { recursive: true, force: true });
    if (started !== undefined) process.stdout.write(`Node ${version}: ${Math.round((Date.now() - started) / 1000)} s in all\n`);
  });

  it("runs better-sqlite3 compiled for it, and makes the init project's table (npm run db:push), serves it with npm start, then from its bundle", async () => {
    const abi = run('node', ['-p', 'process.versions.modules'], project, node).trim();
    expect(run('node', ['-e', "new (require('better-sqlite3'))(':memory:'); process.stdout.write(process.versions.modules)"], project, node)).toBe(abi);
    // 13 (Node-API): 12 aborts Node 24.19+ when the GC finalizes a statement outside a context (scaffold.ts).
    expect(run('node', ['-p', "JSON.parse(require('fs').readFileSync('node_modules/better-sqlite3/package.json', 'utf8')).version.split('.')[0]"], project, node).trim()).toBe('13');
    run('npm', ['run', 'db:push'], project, node, STEP_TIMEOUT_MS);
    const server = await serve('npm', ['start'], project, { ...node.env, PORT: String(await freePort()) });
    try {
      await exerciseInitProject(server.url);
    } finally {
      await server.stop();
    }
    run('npm', ['run', 'build'], project, node, STEP_TIMEOUT_MS);
    // Without --disallow-code-generation-from-strings: better-sqlite3 13 builds its row readers with new Function (the
    // Node 20 suites, packaged-install and pnpm-install, keep checking that Tessera's own bundle needs none).
    const bundle = await serve('node', ['dist/server.js'], project, { ...node.env, PORT: String(await freePort()) });
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
    let started: Awaited<ReturnType<typeof exercise>>;
    try {
      started = await exercise(served.url);
    } finally {
      await served.stop();
    }
    run(tessera, ['build', entry, '--out', 'dist'], app, node, STEP_TIMEOUT_MS);
    const bundle = await serve('node', ['dist/server.js'], app, { ...node.env, PORT: String(await freePort()), DATABASE_FILE: 'bundle.db' });
    try {
      const bundled = await exercise(bundle.url);
      expect(started.map((answer) => answer.status)).toEqual(EXERCISE_STATUSES);
      expect(bundled).toEqual(started);
    } finally {
      await bundle.stop();
    }
  }, 3 * STEP_TIMEOUT_MS);
});
