// Which packages a bundle imports from node_modules and which `tessera build` joins into its entry: a TypeScript
// workspace package linked in by `npm install ../shared` (a link to a folder outside node_modules) and a package
// whose entry is TypeScript must be bundled, since Node cannot import them where the bundle runs; a package only
// such a package can see stops the build with one line instead of a bundle that cannot start.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, buildCli, linkPackages, removeFolder, startBundle } from '../helpers/bundles';
import { freePort } from '../helpers/free-port';
import { request } from '../helpers/request';

const CLI_TIMEOUT_MS = 60_000;

const ENTRY = `import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { defineService } from 'tessera-api';
import { greeting } from '@qa/shared';
import { shout } from '@qa/typed';

const api = defineService({ name: 'api', db: drizzle(new Database(':memory:')) });
api.action('greet', { handler: () => ({ text: shout(greeting('deploy')) }) });
export default { requestLogging: false };
`;

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

let root: string;
let project: string;

beforeAll(() => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-bundle-packages-'));
  project = path.join(root, 'app');
  // A workspace package as the QA repro has it: `"exports": "./index.ts"`, installed by npm as a link.
  write(path.join(root, 'shared/package.json'), JSON.stringify({ name: '@qa/shared', version: '1.0.0', type: 'module', exports: './index.ts' }));
  write(path.join(root, 'shared/index.ts'), "export const greeting = (name: string): string => `hello ${name}`;\n");
  write(path.join(project, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module', dependencies: { '@qa/shared': 'file:../shared' } }));
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: project, stdio: 'ignore', timeout: CLI_TIMEOUT_MS });
  expect(fs.lstatSync(path.join(project, 'node_modules/@qa/shared')).isSymbolicLink()).toBe(true);
  // A package published as TypeScript, copied into node_modules.
  write(path.join(project, 'node_modules/@qa/typed/package.json'), JSON.stringify({ name: '@qa/typed', version: '1.0.0', type: 'module', exports: './index.mts' }));
  write(path.join(project, 'node_modules/@qa/typed/index.mts'), 'export const shout = (text: string): string => `${text.toUpperCase()}!`;\n');
  linkPackages(project);
  write(path.join(project, 'app.ts'), ENTRY);
}, CLI_TIMEOUT_MS);

afterAll(() => {
  if (root !== undefined) removeFolder(root);
});

it('bundles a linked TypeScript workspace package and a TypeScript package, and the bundle starts without them', async () => {
  const out = path.join(project, 'dist');
  await build(path.join(project, 'app.ts'), out, ['--no-typecheck']);
  const entry = fs.readFileSync(path.join(out, 'entry.mjs'), 'utf8');
  expect(entry).not.toMatch(/from ["']@qa\//);
  expect(entry).toMatch(/from ["']better-sqlite3["']/);
  // Production holds dist/, package.json and node_modules; the workspace's sources are not deployed.
  const typed = path.join(project, 'node_modules/@qa/typed');
  fs.renameSync(path.join(root, 'shared'), path.join(root, 'shared-gone'));
  fs.renameSync(typed, `${typed}-gone`);
  const server = await startBundle(out, { PORT: String(await freePort()) });
  try {
    expect(await request(`${server.url}/api/api/greet`, { method: 'POST', body: {} })).toMatchObject({ status: 200, body: { text: 'HELLO DEPLOY!' } });
  } finally {
    await server.stop();
    fs.renameSync(path.join(root, 'shared-gone'), path.join(root, 'shared'));
    fs.renameSync(`${typed}-gone`, typed);
  }
}, 2 * CLI_TIMEOUT_MS);

it('exits 1 with one line when a bundled package imports a package the project does not install, writing nothing', async () => {
  // Only the workspace package can see it (its own node_modules): the bundle, importing it from the project's, could not start.
  write(path.join(root, 'shared/node_modules/only-shared/package.json'), JSON.stringify({ name: 'only-shared', version: '1.0.0', main: 'index.js' }));
  write(path.join(root, 'shared/node_modules/only-shared/index.js'), "exports.suffix = '.';\n");
  write(path.join(root, 'shared/index.ts'), "import { suffix } from 'only-shared';\nexport const greeting = (name: string): string => `hello ${name}${suffix}`;\n");
  const out = path.join(project, 'dist-unresolved');
  const result = await buildCli(path.join(project, 'app.ts'), out, ['--no-typecheck']);
  expect(result.code).toBe(1);
  const shared = path.relative(process.cwd(), path.join(root, 'shared/index.ts'));
  expect(result.stderr).toBe(
    `tessera: cannot bundle app.ts: ${shared}:1:24: only-shared is not installed in the project, where the bundle imports it from node_modules: add it to the project's dependencies (npm install only-shared)\n`,
  );
  expect(fs.existsSync(out)).toBe(false);
}, CLI_TIMEOUT_MS);
