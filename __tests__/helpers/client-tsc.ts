// tsc over a bundle's client.ts and programs that use it, under strict settings: with Node's types (global fetch
// typed) or with none at all (the client must not need them).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './bundles';

const TSC = path.join(REPO_ROOT, 'node_modules/typescript/bin/tsc');
const STRICT = { noEmit: true, strict: true, isolatedModules: true, target: 'ES2022', module: 'commonjs', lib: ['ES2022'] };
const SETTINGS = {
  node: { ...STRICT, types: ['node'], typeRoots: [path.join(REPO_ROOT, 'node_modules/@types')] },
  bare: { ...STRICT, types: [] },
};

/** Runs tsc over `files` with one of the settings; throws with its diagnostics (printed on stdout) on failure. */
export function typeCheckClient(folder: string, files: string[], settings: keyof typeof SETTINGS): void {
  const project = path.join(folder, `tsconfig.${settings}.json`);
  fs.writeFileSync(project, JSON.stringify({ compilerOptions: SETTINGS[settings], files }));
  try {
    execFileSync(process.execPath, [TSC, '-p', project], { encoding: 'utf8', stdio: 'pipe' });
  } catch (error) {
    throw new Error(`tsc failed:\n${(error as { stdout?: string }).stdout ?? ''}`);
  }
}
