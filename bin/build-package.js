#!/usr/bin/env node
// `npm run build` (also run by `prepare`, so `npm ci`, `npm pack` and installs from git get it): compiles runtime/,
// generator/ and bin/ to CommonJS with declarations in lib/, copies the files the code reads from disk, and writes
// the ES module entry. `--incremental` (the test suite's set-up) keeps lib/ and recompiles only what changed.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const LIB = path.join(ROOT, 'lib');
const isIncremental = process.argv.includes('--incremental');

/** Read at run time relative to the compiled modules, so they keep their place under lib/. */
const COPIED = ['templates', 'runtime/docs/assets', 'runtime/dashboard/assets', 'runtime/native-import.js', 'bin/esm-format-hooks.mjs'];

if (!isIncremental) fs.rmSync(LIB, { recursive: true, force: true });
const tsc = require.resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json'), ...(isIncremental ? ['--incremental'] : [])], { stdio: 'inherit' });
for (const item of COPIED) fs.cpSync(path.join(ROOT, item), path.join(LIB, item), { recursive: true });
fs.chmodSync(path.join(LIB, 'bin', 'tessera.js'), 0o755);
writeEsmEntry();

/**
 * lib/esm/index.mjs: `import { crud } from 'tessera'` in an ES module gets the very objects `require('tessera')`
 * returns (one registry of services whichever way the application and the CLI load Tessera), with real named
 * exports. lib/esm/index.d.mts gives TypeScript the same names as an ES module.
 */
function writeEsmEntry() {
  const names = Object.keys(require(path.join(LIB, 'runtime', 'index.js'))).filter((name) => name !== '__esModule').sort();
  const folder = path.join(LIB, 'esm');
  fs.mkdirSync(folder, { recursive: true });
  const header = '// The ES module entry of tessera: the CommonJS build\'s exports, so both kinds of import share one instance.\n';
  fs.writeFileSync(path.join(folder, 'index.mjs'), `${header}import tessera from '../runtime/index.js';\n\nexport const {\n${names.map((name) => `  ${name},`).join('\n')}\n} = tessera;\n`);
  fs.writeFileSync(path.join(folder, 'index.d.mts'), `${header}export * from '../runtime/index.js';\n`);
}
