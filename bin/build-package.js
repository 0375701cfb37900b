#!/usr/bin/env node
// `npm run build` (also run by `prepare`, so `npm ci`, `npm pack` and installs from git get it): compiles runtime/,
// generator/ and bin/ to CommonJS with declarations in lib/, copies the files the code reads from disk and the
// documentation UIs' browser files (from devDependencies), and writes the ES module entry. `--incremental` (the test
// suite's set-up) keeps lib/ and recompiles only what changed.
'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

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
vendorUiAssets();
writeEsmEntry();

/**
 * lib/runtime/docs/vendor: the browser files of Scalar, Swagger UI and uPlot that the pages serve, gzipped (runtime/docs/ui-assets.ts
 * lists them), copied from the devDependencies they come from, with a note of each package's version and licence
 * and the licence and notice files the packages ship. The installed package needs neither package (issue 28).
 */
function vendorUiAssets() {
  const { UI_ASSETS, VENDOR_DIR, packageAssetPath } = require(path.join(LIB, 'runtime', 'docs', 'ui-assets.js'));
  fs.rmSync(VENDOR_DIR, { recursive: true, force: true });
  fs.mkdirSync(VENDOR_DIR, { recursive: true });
  const notes = ['The browser files of the documentation pages and the dashboard, gzipped, copied by the package build from these packages:', ''];
  const packages = new Map();
  for (const asset of Object.values(UI_ASSETS)) {
    const source = packageAssetPath(asset);
    if (source === null) throw new Error(`build: ${asset.from.package}/${asset.from.path} is missing: run npm install (it is a devDependency)`);
    // Gzipped: a third of the size in every install, and what the pages send to browsers as it is.
    fs.writeFileSync(path.join(VENDOR_DIR, `${asset.file}.gz`), zlib.gzipSync(fs.readFileSync(source), { level: 9 }));
    // A bundled file's notices of the code bundled into it (swagger-ui-bundle.js.LICENSE.txt), as its package ships them.
    if (fs.existsSync(`${source}.LICENSE.txt`)) fs.copyFileSync(`${source}.LICENSE.txt`, path.join(VENDOR_DIR, `${asset.file}.LICENSE.txt`));
    const root = source.slice(0, source.length - asset.from.path.length);
    const files = packages.get(asset.from.package)?.files ?? [];
    packages.set(asset.from.package, { root, files: [...files, `${asset.file}.gz (${asset.from.path}, gzipped)`] });
  }
  for (const [name, { root, files }] of packages) {
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
    notes.push(`${name} ${manifest.version}, licence ${manifest.license}: ${files.join(', ')}`);
    for (const file of ['LICENSE', 'NOTICE']) {
      const from = path.join(root, file);
      if (fs.existsSync(from)) fs.copyFileSync(from, path.join(VENDOR_DIR, `${name.replace(/^@/, '').replace(/\//g, '-')}.${file}`));
    }
  }
  fs.writeFileSync(path.join(VENDOR_DIR, 'README.txt'), notes.join('\n') + '\n');
}

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
