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
const COPIED = ['templates', 'runtime/docs/assets', 'runtime/dashboard/assets', 'runtime/native-import.js', 'bin/esm-format-hooks.mjs', 'bin/drizzle-commonjs-hooks.mjs', 'bin/dev/loaded-modules-hooks.mjs'];

if (!isIncremental) fs.rmSync(LIB, { recursive: true, force: true });
const tsc = require.resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.build.json'), ...(isIncremental ? ['--incremental'] : [])], { stdio: 'inherit' });
for (const item of COPIED) fs.cpSync(path.join(ROOT, item), path.join(LIB, item), { recursive: true });
fs.chmodSync(path.join(LIB, 'bin', 'tessera.js'), 0o755);
writeEsmEntry();

/**
 * lib/esm/index.mjs: `import { crud } from 'tessera-api'` in an ES module gets the very objects `require('tessera-api')`
 * returns (one registry of services whichever way the application and the CLI load Tessera), with real named
 * exports. lib/esm/index.d.mts gives TypeScript the same names as an ES module, from the declarations' ES module
 * copy (writeEsmDeclarations).
 */
function writeEsmEntry() {
  const names = Object.keys(require(path.join(LIB, 'runtime', 'index.js'))).filter((name) => name !== '__esModule').sort();
  const folder = path.join(LIB, 'esm');
  fs.mkdirSync(folder, { recursive: true });
  const header = '// The ES module entry of tessera: the CommonJS build\'s exports, so both kinds of import share one instance.\n';
  fs.writeFileSync(path.join(folder, 'index.mjs'), `${header}import tessera from '../runtime/index.js';\n\nexport const {\n${names.map((name) => `  ${name},`).join('\n')}\n} = tessera;\n`);
  writeEsmDeclarations(path.join(LIB, 'runtime', 'index.d.ts'), path.join(folder, 'types'));
  fs.writeFileSync(path.join(folder, 'index.d.mts'), `${header}export * from './types/runtime/index.mjs';\n`);
}

/**
 * TypeScript reads a declaration file as CommonJS or as an ES module by its extension and package.json, and takes
 * a package's types by the matching condition: drizzle-orm's `.d.cts` for CommonJS, `.d.ts` for ES modules. Were
 * the ES module entry to re-export lib/runtime's CommonJS declarations, an ES module application would meet two
 * unrelated copies of drizzle-orm's classes (`Two different types with this name exist`) as soon as it passed a
 * table to Tessera. So the declarations reachable from `entry` are copied below `outDir` as `.d.mts`, their
 * relative imports given the `.mjs` extension an ES module needs; package imports stay as they are.
 */
function writeEsmDeclarations(entry, outDir) {
  const ts = require('typescript');
  const pending = [entry];
  const seen = new Set(pending);
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    const text = fs.readFileSync(file, 'utf8');
    let copy = '';
    let copied = 0;
    // preProcessFile lists every import, export and import() type with the position of its quoted specifier.
    for (const { fileName, pos } of ts.preProcessFile(text, true, true).importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = declarationOf(path.resolve(path.dirname(file), fileName), file, fileName);
      if (!seen.has(target.file)) {
        seen.add(target.file);
        pending.push(target.file);
      }
      copy += text.slice(copied, pos + 1) + fileName + target.suffix;
      copied = pos + 1 + fileName.length;
      if (text[pos] !== text[copied]) throw new Error(`${file}: cannot place the import of ${fileName}`);
    }
    const out = path.join(outDir, path.relative(LIB, file)).replace(/\.d\.ts$/, '.d.mts');
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, copy + text.slice(copied));
  }
}

/** The declaration file a relative import names (`./x` → x.d.ts, or x/index.d.ts) and what its ES module form adds. */
function declarationOf(resolved, importer, specifier) {
  if (fs.existsSync(`${resolved}.d.ts`)) return { file: `${resolved}.d.ts`, suffix: '.mjs' };
  if (fs.existsSync(path.join(resolved, 'index.d.ts'))) return { file: path.join(resolved, 'index.d.ts'), suffix: '/index.mjs' };
  throw new Error(`${importer}: no declarations for ${specifier}`);
}
