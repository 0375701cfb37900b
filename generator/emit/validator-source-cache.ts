// ajv's standalone code kept on disk between runs, in node_modules/.cache/tessera (safe to delete): `tessera start`
// and `tessera build` compile only the validation documents that changed since the last run (issue 16). A file is
// named by a digest of everything its text depends on: the document, the exports, ajv's and ajv-formats' versions
// and the source of the ajv options (runtime/validation) and of the require rewrite (standalone-code), so a stale file
// is never read, only left behind.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Where the files go below the application's node_modules. */
const CACHE_PATH = ['.cache', 'tessera', 'validators'];

let generatorStamp: string | null = null;

/** What the text depends on besides the document: computed once per process. */
function stamp(): string {
  if (generatorStamp === null) {
    const versions = ['ajv/package.json', 'ajv-formats/package.json'].map((file) => (require(file) as { version: string }).version);
    const sources = [require.resolve('../../runtime/validation'), require.resolve('./standalone-code')].map((file) => fs.readFileSync(file, 'utf8'));
    generatorStamp = JSON.stringify([...versions, ...sources]);
  }
  return generatorStamp;
}

/** The cache folder of the application run from `cwd`: beside the nearest node_modules above it, or null without one. */
export function defaultCacheFolder(cwd: string = process.cwd()): string | null {
  for (let folder = cwd; ; folder = path.dirname(folder)) {
    if (fs.existsSync(path.join(folder, 'node_modules'))) return path.join(folder, 'node_modules', ...CACHE_PATH);
    if (path.dirname(folder) === folder) return null;
  }
}

export class ValidatorSourceCache {
  readonly #folder: string | null;

  /** `folder` null: nothing is kept on disk. */
  constructor(folder: string | null) {
    this.#folder = folder;
  }

  #file(key: string): string | null {
    return this.#folder === null ? null : path.join(this.#folder, `${createHash('sha256').update(stamp()).update(key).digest('hex')}.js`);
  }

  /** The text stored under `key` (any string naming what the text was made from), or null. */
  read(key: string): string | null {
    const file = this.#file(key);
    if (file === null) return null;
    try {
      return fs.readFileSync(file, 'utf8');
    } catch {
      return null;
    }
  }

  /** Stores `text` under `key`; a folder it cannot write (a read-only deployment) only means no cache. */
  write(key: string, text: string): void {
    const file = this.#file(key);
    if (file === null) return;
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      // Renamed into place: a reader never sees a half-written file.
      const partial = `${file}.${process.pid}.tmp`;
      fs.writeFileSync(partial, text);
      fs.renameSync(partial, file);
    } catch {
      // No cache this time.
    }
  }
}
