// `tessera dev` after an edit of tsconfig.json: tsx reads it when a child starts, and the next child stands by
// with tsx loaded before any edit, so dev watches the tsconfig and restarts with a child that reads it anew; the
// restart behaves as a fresh `tessera start` would, in both directions (a `paths` alias added, then removed), and
// for the tsconfig it extends.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { linkPackages, REPO_ROOT, removeFolder } from '../../helpers/bundles';
import { waitForOutput, waitForTitle } from '../../helpers/dev-server';
import { freePort } from '../../helpers/free-port';
import { PACKAGED_BIN, startNode, type RunningCli } from '../../helpers/spawn-cli';

const CLI_TIMEOUT_MS = 60_000;

const TSCONFIG = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'templates/init/tsconfig.json'), 'utf8')) as { compilerOptions: Record<string, unknown> };

function app(helpers: string, suffix: string): string {
  return `import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { defineService, type ServerOptions } from 'tessera-api';
import { greeting } from '${helpers}';

defineService({ name: 'api', db: drizzle(new Database(':memory:')) }).action('hello', { handler: () => greeting });
export default { title: greeting + ${JSON.stringify(suffix)}, requestLogging: false } satisfies ServerOptions;
`;
}

/** After `line` (a restart dev printed), the output shows the next child standing by. */
function standingByAfter(line: string): RegExp {
  return new RegExp(`${line.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n[\\s\\S]*^tessera dev: the next server stands by$`, 'm');
}

describe('tessera dev after a tsconfig.json edit', () => {
  let folder: string;
  let dev: RunningCli;

  /** tsconfig.json extends tsconfig.base.json (init's options); `paths` go into the file named. */
  const writeTsconfig = (paths?: Record<string, string[]>, file = 'tsconfig.json'): void => {
    const compilerOptions = paths === undefined ? {} : { paths };
    if (file === 'tsconfig.json') fs.writeFileSync(path.join(folder, file), JSON.stringify({ extends: './tsconfig.base.json', compilerOptions, include: ['*.ts'] }, null, 2));
    else fs.writeFileSync(path.join(folder, file), JSON.stringify({ compilerOptions: { ...TSCONFIG.compilerOptions, ...compilerOptions } }, null, 2));
  };

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-dev-tsconfig-'));
    linkPackages(folder);
    fs.writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name: 'dev-tsconfig', private: true, type: 'module' }));
    writeTsconfig(undefined, 'tsconfig.base.json');
    writeTsconfig();
    fs.mkdirSync(path.join(folder, 'lib'));
    fs.writeFileSync(path.join(folder, 'lib/helpers.ts'), "export const greeting: string = 'hello';\n");
    fs.writeFileSync(path.join(folder, 'app.ts'), app('./lib/helpers.js', ''));
    // DEBUG=tessera: dev says when the next server stands by (tsx registered, with the tsconfig it read).
    dev = await startNode([PACKAGED_BIN, 'dev', 'app.ts', '--port', String(await freePort())], { DEBUG: 'tessera' }, CLI_TIMEOUT_MS, folder);
  }, CLI_TIMEOUT_MS);

  afterAll(async () => {
    await dev?.stop();
    if (folder !== undefined) removeFolder(folder);
  });

  it('serves an import through a paths alias added to tsconfig.json, on the first restart after it', async () => {
    expect(await waitForTitle(dev.url, 'hello', CLI_TIMEOUT_MS)).toBe('hello');
    await waitForOutput(dev, /^tessera dev: the next server stands by$/m);
    writeTsconfig({ '@lib/*': ['./lib/*'] });
    await waitForOutput(dev, standingByAfter('tessera dev: tsconfig.json changed, restarting'));
    fs.writeFileSync(path.join(folder, 'app.ts'), app('@lib/helpers.js', ' through the alias'));
    expect(await waitForTitle(dev.url, 'hello through the alias', CLI_TIMEOUT_MS)).toBe('hello through the alias');
  }, 2 * CLI_TIMEOUT_MS);

  it('stops the server when the alias it imports through is removed from tsconfig.json, as tessera start would', async () => {
    // The next child stands by with tsx registered while the alias is still there.
    await waitForOutput(dev, standingByAfter('tessera dev: app.ts changed, restarting'));
    writeTsconfig();
    await waitForOutput(dev, /tessera dev: tsconfig\.json changed, restarting\n(?:(?!tessera dev: tsconfig)[\s\S])*the server stopped \(exit code 1\); waiting for a change to restart/);
  }, CLI_TIMEOUT_MS);

  it('serves the alias again once the tsconfig it extends declares it', async () => {
    writeTsconfig({ '@lib/*': ['./lib/*'] }, 'tsconfig.base.json');
    await waitForOutput(dev, /tessera dev: tsconfig\.base\.json changed, restarting\n/);
    expect(await waitForTitle(dev.url, 'hello through the alias', CLI_TIMEOUT_MS)).toBe('hello through the alias');
  }, CLI_TIMEOUT_MS);
});
