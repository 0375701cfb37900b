// Which `tessera-api` dependency `tessera init` writes: one that installs wherever this tessera came from. The
// signal is how the project that installed this copy asked for it (its package.json), which npm, npx and pnpm keep.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export type TesseraOrigin = 'registry' | 'tarball' | 'folder' | 'source';

export interface TesseraDependency {
  /** The version range or `file:` path the new project's package.json gets. */
  readonly spec: string;
  readonly origin: TesseraOrigin;
  /** What init prints about it, one line. */
  readonly description: string;
}

/** Where this copy of Tessera lives and what version it is (runtime/package-info.ts). */
export interface RunningTessera {
  readonly root: string;
  readonly version: string;
}

const NAME = 'tessera-api';
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'optionalDependencies'] as const;
/** A registry request: a version, range or dist-tag, or an npm alias (`npm:tessera-api@^0.1`). */
const REGISTRY_SPEC = /^(npm:|[^:/\\]*$)/;
/** A local path spec as npm and pnpm write it: `file:`, `link:`, a path (`./x.tgz`, `/abs`, `~/x`) or a tarball's name. */
const PATH_SPEC = /^(file:|link:|\.{1,2}([/\\]|$)|[/\\~])|^[^:]*\.(tgz|tar\.gz|tar)$/;
const TARBALL = /\.(tgz|tar\.gz|tar)$/;

/**
 * The dependency for a project made by this tessera, from where `root` (its package folder, symlinks resolved) is:
 * - not inside a `node_modules` folder: a checkout (or a folder linked in): `file:<root>`;
 * - installed: the folder before the first `node_modules` is the project that installed it (an app, npx's cache
 *   folder `~/.npm/_npx/<hash>`, pnpm's project beside its `.pnpm` store): the spec its package.json gives
 *   `tessera-api` says where it came from. A path (`file:../x.tgz`, as `npx --package ./x.tgz` writes it) becomes
 *   absolute; a version, range or tag means the registry: `^<version>`; anything else (a git or tarball URL)
 *   is kept as it is. No spec (a global install, a dependency of a dependency): the registry.
 */
export function tesseraDependency({ root, version }: RunningTessera): TesseraDependency {
  const registry: TesseraDependency = { spec: `^${version}`, origin: 'registry', description: `^${version}, from the registry (the version this tessera is)` };
  const segments = root.split(path.sep);
  const installedAt = segments.indexOf('node_modules');
  if (installedAt === -1) return local(root, 'this tessera runs from');
  const project = segments.slice(0, installedAt).join(path.sep) || path.sep;
  const spec = installedSpec(project);
  if (spec === undefined) return registry;
  if (PATH_SPEC.test(spec)) {
    const target = spec.replace(/^(file|link):/, '').replace(/^~(?=[/\\])/, os.homedir());
    return local(path.resolve(project, target), 'this tessera was installed from');
  }
  if (REGISTRY_SPEC.test(spec)) return registry;
  return { spec, origin: 'source', description: `${spec}, as this tessera was installed` };
}

/** `file:<absolute>` for a tarball or a folder, said so; a path that is gone is said too (npm install would fail). */
function local(target: string, how: string): TesseraDependency {
  const spec = `file:${target}`;
  if (!fs.existsSync(target)) {
    const kind = TARBALL.test(target) ? 'tarball' : 'folder';
    return { spec, origin: kind, description: `${spec}, the ${kind} ${how}, which is not there any more: put it back or change this dependency` };
  }
  if (!fs.statSync(target).isDirectory()) return { spec, origin: 'tarball', description: `${spec}, the tarball ${how}` };
  // A checkout serves its compiled files (lib/): `npm run build` writes them.
  const unbuilt = fs.existsSync(path.join(target, 'lib')) ? '' : ` (build it first there: npm run build)`;
  return { spec, origin: 'folder', description: `${spec}, the folder ${how}${unbuilt}` };
}

/** The spec `project`'s package.json gives tessera-api, if any. */
function installedSpec(project: string): string | undefined {
  let manifest: Partial<Record<(typeof DEPENDENCY_FIELDS)[number], Record<string, unknown>>>;
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(project, 'package.json'), 'utf8')) as typeof manifest;
  } catch {
    return undefined;
  }
  for (const field of DEPENDENCY_FIELDS) {
    const spec = manifest[field]?.[NAME];
    if (typeof spec === 'string' && spec.trim() !== '') return spec.trim();
  }
  return undefined;
}
