// The configuration files a dev child reads as it starts, beside the sources it loads: the tsconfig files (tsx) and
// the application's package.json (Node: its `type` and `imports` decide how the sources load and what `#name`
// imports resolve to). `tessera dev` watches them; a change restarts with a child that reads them anew.
import fs from 'node:fs';
import path from 'node:path';
import { tsconfigFiles } from './tsconfig-files';

/** The package.json Node reads for the entry's folder: the nearest one up from it; without one, the one creating it there would give. */
function packageFile(entryFolder: string): string {
  for (let folder = entryFolder; ; folder = path.dirname(folder)) {
    const candidate = path.join(folder, 'package.json');
    if (fs.existsSync(candidate)) return candidate;
    if (path.dirname(folder) === folder) return path.join(entryFolder, 'package.json');
  }
}

/** Absolute paths of the configuration files a dev child of the entry in `entryFolder` reads. */
export function configFiles(entryFolder: string): ReadonlySet<string> {
  return new Set([...tsconfigFiles(), packageFile(entryFolder)]);
}
