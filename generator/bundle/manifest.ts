// manifest.json: what built the bundle and the list of generated files, which the next build reads to delete
// stale ones; only paths a build can generate are taken from it, so an edited one cannot delete other files.
import { join } from 'node:path';
import type { DialectName } from '../../runtime/dialects/dialect';
import { tesseraPackage } from '../../runtime/package-info';
import type { BundleFileSystem } from './bundle-file-system';
import { isDocumentationPath } from './documentation-files';
import { BUNDLE_LAYOUT, MANIFEST_FILE, type BundleFile } from './layout';

export interface BundleManifest {
  /** The tessera package version that wrote the bundle. */
  readonly tessera: string;
  /** The application entry's source, relative to the bundle folder, with `/` (what the bundle was built from). */
  readonly entry: string;
  /** The bundled application entry the server loads: `entry.mjs` or `entry.cjs`. */
  readonly application: string;
  readonly dialects: readonly DialectName[];
  /** spec §8.1: the port a bundle listens on without PORT (the `--port` given to build). */
  readonly defaultPort: number;
  /** Every generated file but manifest.json, sorted. */
  readonly files: readonly string[];
  /**
   * The packages the modules loaded on first use require (never a path into another package's folder), sorted: the
   * bundle loads each at start (bin/bundle-files-present.ts), so a missing one fails there, not as a 500 later.
   */
  readonly requires: readonly string[];
}

const FIXED_FILES = new Set([...BUNDLE_LAYOUT.map((entry) => entry.path).filter((path) => !path.includes('<')), 'entry.cjs']);
const HANDLER_FILE = /^handlers(\/[A-Za-z][A-Za-z0-9_-]*){2,3}\.js$/;
/** `validators/<service>.<resource>.js`; and the content-hash names builds wrote before, so a rebuild deletes them. */
const VALIDATORS_FILE = /^validators\/([A-Za-z][A-Za-z0-9_-]*\.[A-Za-z][A-Za-z0-9_-]*|[0-9a-f]{16})\.js$/;
const STATEMENTS_FILE = /^statements\/[A-Za-z][A-Za-z0-9_-]*\.[A-Za-z][A-Za-z0-9_-]*\.(sqlite|mysql|postgres)\.sql$/;

/** Whether a path is one a build generates (and so may delete when it is stale). */
export function isGeneratedPath(path: string): boolean {
  return FIXED_FILES.has(path) || HANDLER_FILE.test(path) || VALIDATORS_FILE.test(path) || STATEMENTS_FILE.test(path) || isDocumentationPath(path);
}

export function tesseraVersion(): string {
  return tesseraPackage().version;
}

/** The folders of the modules a bundle loads on first use, whose requires the manifest lists. */
const LOADED_ON_FIRST_USE = ['handlers/', 'validators/'];

/**
 * `require("…")` of a package (not `./` or `../`): generated code writes every specifier as a JSON literal, so a
 * user's string that merely reads `require("x")` appears escaped (`require(\"x\")`) and is not taken for one.
 */
const PACKAGE_REQUIRE = /\brequire\("([^./"][^"]*)"\)/g;

/** The packages that the files loaded on first use require, sorted. */
function requiredPackages(files: readonly BundleFile[]): string[] {
  const required = new Set<string>();
  for (const file of files) {
    if (!LOADED_ON_FIRST_USE.some((prefix) => file.path.startsWith(prefix))) continue;
    for (const [, id] of file.text.matchAll(PACKAGE_REQUIRE)) required.add(id);
  }
  return [...required].sort();
}

/** The manifest file for the other files of the bundle. */
export function emitManifest(manifest: Omit<BundleManifest, 'files' | 'requires'>, files: readonly BundleFile[]): BundleFile {
  const listed: BundleManifest = { ...manifest, files: files.map((file) => file.path).sort(), requires: requiredPackages(files) };
  return { path: MANIFEST_FILE, text: JSON.stringify(listed, null, 2) + '\n' };
}

/** The generated files the previous build in `outDir` listed; null when it holds no readable manifest (no bundle). */
export function previousFiles(outDir: string, fileSystem: Pick<BundleFileSystem, 'fileExistsSync' | 'readFileSync'>): string[] | null {
  const manifestPath = join(outDir, MANIFEST_FILE);
  if (!fileSystem.fileExistsSync(manifestPath)) return null;
  try {
    const files = (JSON.parse(fileSystem.readFileSync(manifestPath)) as Partial<BundleManifest>).files;
    return Array.isArray(files) ? files.filter((file): file is string => typeof file === 'string' && isGeneratedPath(file)) : null;
  } catch {
    return null; // a manifest we cannot read names nothing: not a bundle we wrote
  }
}
