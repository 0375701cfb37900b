// A bundle loads its route and validator modules on first use (issue 16), so a copy of dist/ that lost some of them,
// or a node_modules that lacks what they require, would start and then answer those routes 500. Checked at start
// instead, from the bundle's manifest.json: every module a route may load later is there, and every package they
// require loads from the bundle's folder (issue 28: a strict layout such as pnpm's), or the start fails naming it.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The folders of the modules a bundle loads on first use (client.ts, contract.json and statements/ are for people). */
const LOADED_ON_FIRST_USE = ['handlers/', 'validators/'];

/** How many missing files a message names before it counts the rest. */
const NAMED_AT_MOST = 3;

interface ListedManifest {
  files: unknown;
  requires?: unknown;
}

/** Throws when a module the manifest lists under handlers/ or validators/, or a package they require, is missing. */
export function checkBundleFilesPresent(folder: string): void {
  let manifest: ListedManifest | undefined;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as ListedManifest;
  } catch {
    manifest = undefined;
  }
  const listed = manifest?.files;
  if (!Array.isArray(listed)) throw new Error(`${bundleLabel(folder)} has no readable manifest.json: deploy the whole folder tessera build wrote`);
  const missing = listed.filter((file): file is string => typeof file === 'string' && LOADED_ON_FIRST_USE.some((prefix) => file.startsWith(prefix)) && !fs.existsSync(path.join(folder, file)));
  if (missing.length > 0) {
    const named = missing.slice(0, NAMED_AT_MOST).join(', ');
    const more = missing.length > NAMED_AT_MOST ? ` and ${missing.length - NAMED_AT_MOST} more` : '';
    throw new Error(`${bundleLabel(folder)} is incomplete: ${named}${more} missing; deploy the whole folder tessera build wrote`);
  }
  // A bundle written before the manifest listed its packages has no `requires`: nothing more to load.
  const requires = Array.isArray(manifest?.requires) ? manifest.requires.filter((id): id is string => typeof id === 'string') : [];
  const requireFromBundle = createRequire(path.join(folder, 'server.js'));
  for (const id of requires) loadRequired(requireFromBundle, id, folder);
}

/** Loads a package the bundle's modules require, as they will, from the bundle's folder; one line when it cannot. */
function loadRequired(requireFromBundle: NodeJS.Require, id: string, folder: string): void {
  try {
    requireFromBundle(id);
  } catch (error) {
    throw new Error(`${bundleLabel(folder)} needs ${id}, which ${whyNotLoaded(error)}: install the packages it was built with beside it (npm install)`);
  }
}

/** Node's reason in a few words, without the absolute paths of its message. */
function whyNotLoaded(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  if (code === 'MODULE_NOT_FOUND') return 'is not installed where the bundle can find it';
  if (code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') return 'the installed package does not provide (an older version than the bundle needs)';
  return `failed to load (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
}

/** The bundle's folder as the user would type it from here. */
function bundleLabel(folder: string): string {
  const relative = path.relative(process.cwd(), folder).split(path.sep).join('/');
  return `the bundle ${relative === '' ? '.' : relative}`;
}
