// `tessera dev` after an edit of package.json: Node reads it for the application's sources (`type`, and `imports`,
// which maps `#name` imports), so dev watches it as it watches the tsconfig, and the restart serves what the edited
// package.json says, as a fresh `tessera start` would, though no source file changed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { linkPackages, REPO_ROOT, removeFolder } from '../../helpers/bundles';
import { waitForOutput, waitForTitle } from '../../helpers/dev-server';
import { freePort } from '../../helpers/free-port';
import { PACKAGED_BIN, startNode, type RunningCli } from '../../helpers/spawn-cli';

const CLI_TIMEOUT_MS = 60_000;

const APP = `import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { defineService, type ServerOptions } from 'tessera-api';
import { greeting } from '#greeting';

defineService({ name: 'api', db: drizzle(new Database(':memory:')) }).action('hello', { handler: () => greeting });
export default { title: greeting, requestLogging: false } satisfies ServerOptions;
`;

describe('tessera dev after a package.json edit', () => {
  let folder: string;
  let dev: RunningCli;

  /** package.json with `#greeting` mapped to `target`. */
  const writePackage = (target: string): void => {
    const manifest = { name: 'dev-package-json', private: true, type: 'module', imports: { '#greeting': target } };
    fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify(manifest, null, 2));
  };

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-dev-package-'));
    linkPackages(folder);
    fs.copyFileSync(path.join(REPO_ROOT, 'templates/init/tsconfig.json'), path.join(folder, 'tsconfig.json'));
    writePackage('./lib/hello.ts');
    fs.mkdirSync(path.join(folder, 'lib'));
    fs.writeFileSync(path.join(folder, 'lib/hello.ts'), "export const greeting: string = 'hello';\n");
    fs.writeFileSync(path.join(folder, 'lib/bye.ts'), "export const greeting: string = 'bye';\n");
    fs.writeFileSync(path.join(folder, 'app.ts'), APP);
    dev = await startNode([PACKAGED_BIN, 'dev', 'app.ts', '--port', String(await freePort())], { DEBUG: 'tessera' }, CLI_TIMEOUT_MS, folder);
  }, CLI_TIMEOUT_MS);

  afterAll(async () => {
    await dev?.stop();
    if (folder !== undefined) removeFolder(folder);
  });

  it('restarts on the edit and serves the module package.json now maps the import to', async () => {
    expect(await waitForTitle(dev.url, 'hello', CLI_TIMEOUT_MS)).toBe('hello');
    // The next child stands by before the edit: it must not serve what it read before.
    await waitForOutput(dev, /^tessera dev: the next server stands by$/m);
    writePackage('./lib/bye.ts');
    await waitForOutput(dev, /^tessera dev: package\.json changed, restarting$/m);
    expect(await waitForTitle(dev.url, 'bye', CLI_TIMEOUT_MS)).toBe('bye');
  }, 2 * CLI_TIMEOUT_MS);
});
