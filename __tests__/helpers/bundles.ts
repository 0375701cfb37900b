// Building, reading and running bundles as users do, for the build tests. A temporary folder gets a node_modules
// of links to the repository's packages, and `tessera` linked to the repository (its package.json points at lib/),
// standing in for an application's node_modules: a bundle in <folder>/dist resolves its imports from there.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runNode, spawnCli, startNode, type CliResult, type RunningCli } from './spawn-cli';

export const REPO_ROOT = path.resolve(__dirname, '../..');
const REPO_NODE_MODULES = path.join(REPO_ROOT, 'node_modules');
const FORBID_GENERATOR = path.join(__dirname, 'forbid-generator.cjs');
/** How the tests run a bundle: no code generation from strings, and no generator or ts-morph. */
export const BUNDLE_NODE_FLAGS = ['--disallow-code-generation-from-strings', '--require', FORBID_GENERATOR];
export const BUILD_TIMEOUT_MS = 60_000;

/**
 * A fresh temporary folder for the enclosing describe: made before its tests (its first beforeAll, so
 * register it first), removed after them. Read `.path` inside hooks and tests.
 */
export function temporaryFolder(prefix: string): { readonly path: string } {
  const folder = { path: '' };
  beforeAll(() => {
    folder.path = fs.mkdtempSync(path.join(os.tmpdir(), `tessera-${prefix}-`));
    linkPackages(folder.path);
  });
  afterAll(() => {
    if (folder.path !== '') removeFolder(folder.path);
  });
  return folder;
}

/**
 * `<folder>/node_modules`: a link to each of the repository's packages but `without`, and `tessera` to the
 * repository itself; what an install already put there (a scope folder included) is kept.
 */
export function linkPackages(folder: string, { without = [] }: { without?: readonly string[] } = {}): void {
  const target = path.join(folder, 'node_modules');
  fs.mkdirSync(target, { recursive: true });
  for (const name of fs.readdirSync(REPO_NODE_MODULES)) {
    if (name === '.bin' || name === 'tessera-api' || without.includes(name) || fs.existsSync(path.join(target, name))) continue;
    fs.symlinkSync(path.join(REPO_NODE_MODULES, name), path.join(target, name), 'dir');
  }
  fs.symlinkSync(REPO_ROOT, path.join(target, 'tessera-api'), 'dir');
}

export function removeFolder(folder: string): void {
  fs.rmSync(folder, { recursive: true, force: true });
}

/** Every file under `folder`, by `/`-separated relative path (sorted), with its exact text. */
export function readTree(folder: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (relative: string): void => {
    for (const entry of fs.readdirSync(path.join(folder, relative), { withFileTypes: true })) {
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else files.set(child, fs.readFileSync(path.join(folder, child), 'utf8'));
    }
  };
  walk('');
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The paths whose text differs between two trees, or that only one of them has. */
export function changedPaths(before: Map<string, string>, after: Map<string, string>): string[] {
  const paths = new Set([...before.keys(), ...after.keys()]);
  return [...paths].filter((file) => before.get(file) !== after.get(file)).sort();
}

/** `tessera build <entry> --out <out> …`, run to completion. */
export function buildCli(entry: string, out: string, args: readonly string[] = [], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return spawnCli(['build', entry, '--out', out, ...args], env, BUILD_TIMEOUT_MS);
}

/** Like buildCli, but fails the test with the CLI's stderr unless the build succeeded. */
export async function build(entry: string, out: string, args: readonly string[] = []): Promise<CliResult> {
  const result = await buildCli(entry, out, args);
  if (result.code !== 0) throw new Error(`tessera build ${entry} failed (${result.code}):\n${result.stderr}`);
  return result;
}

/** `node <flags> <out>/server.js`, run to completion (for start-up failures). */
export function runBundle(out: string, env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return runNode([...BUNDLE_NODE_FLAGS, path.join(out, 'server.js')], env);
}

/** `node <flags> <out>/server.js`, resolved once it listens. */
export function startBundle(out: string, env: Record<string, string | undefined> = {}): Promise<RunningCli> {
  return startNode([...BUNDLE_NODE_FLAGS, path.join(out, 'server.js')], env, BUILD_TIMEOUT_MS);
}

/** The databases of the bundle entries: the same variables and defaults as helpers/databases.ts. */
export const MYSQL_URL = process.env.TESSERA_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
export const POSTGRES_URL = process.env.TESSERA_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
