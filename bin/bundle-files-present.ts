// A bundle loads its route and validator modules on first use (issue 16), so a copy of dist/ that lost some of them
// would start and then answer those routes 500. Checked at start instead, from the bundle's manifest.json: every
// module a route may load later is there, or the start fails naming what is missing.
import fs from 'node:fs';
import path from 'node:path';

/** The folders of the modules a bundle loads on first use (client.ts, contract.json and statements/ are for people). */
const LOADED_ON_FIRST_USE = ['handlers/', 'validators/'];

/** How many missing files a message names before it counts the rest. */
const NAMED_AT_MOST = 3;

/** Throws when a module the bundle's manifest lists under handlers/ or validators/ is not in `folder`. */
export function checkBundleFilesPresent(folder: string): void {
  let listed: unknown;
  try {
    listed = (JSON.parse(fs.readFileSync(path.join(folder, 'manifest.json'), 'utf8')) as { files?: unknown }).files;
  } catch {
    listed = undefined;
  }
  if (!Array.isArray(listed)) throw new Error(`${bundleLabel(folder)} has no readable manifest.json: deploy the whole folder tessera build wrote`);
  const missing = listed.filter((file): file is string => typeof file === 'string' && LOADED_ON_FIRST_USE.some((prefix) => file.startsWith(prefix)) && !fs.existsSync(path.join(folder, file)));
  if (missing.length === 0) return;
  const named = missing.slice(0, NAMED_AT_MOST).join(', ');
  const more = missing.length > NAMED_AT_MOST ? ` and ${missing.length - NAMED_AT_MOST} more` : '';
  throw new Error(`${bundleLabel(folder)} is incomplete: ${named}${more} missing; deploy the whole folder tessera build wrote`);
}

/** The bundle's folder as the user would type it from here. */
function bundleLabel(folder: string): string {
  const relative = path.relative(process.cwd(), folder).split(path.sep).join('/');
  return `the bundle ${relative === '' ? '.' : relative}`;
}
