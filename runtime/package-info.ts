// Tessera's own package.json, found from this file whether it runs as source (runtime/) or compiled (lib/runtime/).
import fs from 'node:fs';
import path from 'node:path';

export interface PackageInfo {
  /** The folder holding Tessera's package.json. */
  readonly root: string;
  readonly version: string;
}

let cached: PackageInfo | null = null;

/** @internal The nearest package.json named `tessera-api` above this module. */
export function tesseraPackage(): PackageInfo {
  if (cached !== null) return cached;
  for (let folder = __dirname; ; folder = path.dirname(folder)) {
    const file = path.join(folder, 'package.json');
    if (fs.existsSync(file)) {
      const json = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (json.name === 'tessera-api') return (cached = { root: folder, version: String(json.version) });
    }
    if (path.dirname(folder) === folder) throw new Error(`no package.json of tessera above ${__dirname}`);
  }
}
