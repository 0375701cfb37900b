// A bundle loads its route and validator modules on first use, so a copy of dist/ that lost some of them must not
// start and then answer those routes 500: it refuses to start, naming what is missing (bin/bundle-files-present.ts).
// The files kept for people (client.ts, contract.json, statements/) may be left out of a deployment; a copy of
// dist/ without the application's node_modules (no tessera-api) says what to install in one line.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, removeFolder, runBundle, startBundle, temporaryFolder } from '../helpers/bundles';
import { freePort } from '../helpers/free-port';
import { request } from '../helpers/request';

const SQLITE_ENTRY = '__tests__/bin/entries/bundle-sqlite.ts';
const CLI_TIMEOUT_MS = 60_000;

const folder = temporaryFolder('bundle-incomplete');
let built: string;

beforeAll(async () => {
  built = path.join(folder.path, 'built');
  await build(SQLITE_ENTRY, built, ['--no-typecheck']);
}, CLI_TIMEOUT_MS);

/** A copy of the built bundle, as a deployment would make it, without `left out` (paths inside the bundle). */
function deployWithout(name: string, leftOut: readonly string[]): string {
  const deployed = path.join(folder.path, name);
  fs.cpSync(built, deployed, { recursive: true });
  for (const file of leftOut) fs.rmSync(path.join(deployed, file), { recursive: true });
  return deployed;
}

/** The bundle's files under `dir`, as the manifest lists them. */
function listed(under: string): string[] {
  const { files } = JSON.parse(fs.readFileSync(path.join(built, 'manifest.json'), 'utf8')) as { files: string[] };
  return files.filter((file) => file.startsWith(under));
}

it('refuses to start without a route module, naming it', async () => {
  const [getModule] = listed('handlers/').filter((file) => file.endsWith('/get.js'));
  const deployed = deployWithout('no-get', [getModule]);
  const result = await runBundle(deployed, { PORT: String(await freePort()) });
  expect(result.code).toBe(1);
  expect(result.stderr).toBe(`tessera: the bundle ${path.relative(process.cwd(), deployed)} is incomplete: ${getModule} missing; deploy the whole folder tessera build wrote\n`);
}, CLI_TIMEOUT_MS);

it('names three missing files and counts the rest', async () => {
  const validators = listed('validators/');
  const handlers = listed('handlers/');
  const deployed = deployWithout('no-handlers', ['handlers', ...validators]);
  const result = await runBundle(deployed, { PORT: String(await freePort()) });
  expect(result.code).toBe(1);
  const missing = [...handlers, ...validators].sort();
  expect(result.stderr).toContain(`is incomplete: ${missing.slice(0, 3).join(', ')} and ${missing.length - 3} more missing;`);
}, CLI_TIMEOUT_MS);

it('refuses to start without its manifest', async () => {
  const deployed = deployWithout('no-manifest', ['manifest.json']);
  const result = await runBundle(deployed, { PORT: String(await freePort()) });
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/^tessera: the bundle .*no-manifest has no readable manifest\.json: deploy the whole folder tessera build wrote\n$/);
}, CLI_TIMEOUT_MS);

it('serves without the files kept for people: client.ts, contract.json, statements/', async () => {
  const deployed = deployWithout('slim', ['client.ts', 'contract.json', 'statements']);
  const server = await startBundle(deployed, { PORT: String(await freePort()) });
  try {
    const created = await request(`${server.url}/api/notes`, { method: 'POST', body: { title: 'slim' } });
    expect(created).toMatchObject({ status: 201, body: { title: 'slim' } });
  } finally {
    await server.stop();
  }
}, CLI_TIMEOUT_MS);

it("loads the packages its modules require at start, and refuses to start naming one that does not load (a tessera-api without the validation runtime)", async () => {
  const deployed = path.join(folder.path, 'older-tessera', 'dist');
  await build('__tests__/bin/entries/bundle-validation-runtime.ts', deployed, ['--no-typecheck']);
  expect(JSON.parse(fs.readFileSync(path.join(deployed, 'manifest.json'), 'utf8'))).toMatchObject({ requires: ['tessera-api/validation-runtime'] });
  // Served where tessera-api provides it (the folder's node_modules links the repository)...
  const server = await startBundle(deployed, { PORT: String(await freePort()) });
  try {
    expect(await request(`${server.url}/api/tools/label`, { method: 'POST', body: { text: '😀😀😀😀😀😀😀😀' } })).toMatchObject({ status: 200 });
    expect(await request(`${server.url}/api/tools/label`, { method: 'POST', body: { text: 'ok', tags: [{}, {}] } })).toMatchObject({ status: 400 });
  } finally {
    await server.stop();
  }
  // ...but not once a node_modules of its own holds a tessera-api that exports no ./validation-runtime (an older one).
  const tessera = path.join(folder.path, 'older-tessera', 'node_modules', 'tessera-api');
  fs.mkdirSync(tessera, { recursive: true });
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as { exports: Record<string, unknown> };
  delete manifest.exports['./validation-runtime'];
  fs.writeFileSync(path.join(tessera, 'package.json'), JSON.stringify(manifest));
  fs.symlinkSync(path.join(__dirname, '../../lib'), path.join(tessera, 'lib'), 'dir');
  const result = await runBundle(deployed, { PORT: String(await freePort()) });
  expect(result.code).toBe(1);
  expect(result.stderr).toBe(
    `tessera: the bundle ${path.relative(process.cwd(), deployed)} needs tessera-api/validation-runtime, which the installed package does not provide (an older version than the bundle needs): install the packages it was built with beside it (npm install)\n`,
  );
}, CLI_TIMEOUT_MS);

describe('a bundle deployed without tessera-api installed', () => {
  let alone: string;
  beforeAll(() => {
    // Outside the suite's folder, whose node_modules any folder below it would find.
    alone = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bundle-alone-'));
  });
  afterAll(() => removeFolder(alone));

  it('refuses to start in one line saying to install the application dependencies beside it', async () => {
    const deployed = path.join(alone, 'dist');
    fs.cpSync(built, deployed, { recursive: true });
    const result = await runBundle(deployed, { PORT: String(await freePort()) });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `tessera: the bundle ${path.relative(process.cwd(), deployed)} needs the package tessera-api, which is not installed where it runs: copy the application's package.json and package-lock.json beside the bundle's folder and run npm ci --omit=dev there (it installs tessera-api and the database driver)\n`,
    );
  }, CLI_TIMEOUT_MS);

  it('refuses to start in one line with a tessera-api too old to provide tessera-api/bundle', async () => {
    const project = path.join(alone, 'older');
    fs.cpSync(built, path.join(project, 'dist'), { recursive: true });
    fs.mkdirSync(path.join(project, 'node_modules/tessera-api'), { recursive: true });
    fs.writeFileSync(path.join(project, 'node_modules/tessera-api/package.json'), JSON.stringify({ name: 'tessera-api', version: '0.0.1', exports: { '.': './index.js' } }));
    const result = await runBundle(path.join(project, 'dist'), { PORT: String(await freePort()) });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^tessera: the bundle \S+older\/dist needs tessera-api\/bundle, which the installed tessera-api does not provide \(an older version\): copy .* database driver\)\n$/);
  }, CLI_TIMEOUT_MS);
});
