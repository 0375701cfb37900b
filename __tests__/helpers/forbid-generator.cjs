// Preloaded into a bundle's process by the bundle tests (`node --require`): exits with code 70 the moment
// anything resolves tessera's generator or a build tool (ts-morph, typescript, tsx, esbuild), none of which a
// bundle may load: production needs only the bundle and the packages its application imports.
'use strict';
const Module = require('node:module');
const path = require('node:path');

const REPO_ROOT = path.join(__dirname, '..', '..');
const GENERATOR_FOLDERS = [path.join(REPO_ROOT, 'generator') + path.sep, path.join(REPO_ROOT, 'lib', 'generator') + path.sep];
const FORBIDDEN_PACKAGES = /[\\/]node_modules[\\/](ts-morph|@ts-morph[\\/]common|typescript|tsx|esbuild)[\\/]/;
const resolveFilename = Module._resolveFilename;

Module._resolveFilename = function resolveAllowed(request, ...rest) {
  const resolved = resolveFilename.call(this, request, ...rest);
  if (GENERATOR_FOLDERS.some((folder) => resolved.startsWith(folder)) || FORBIDDEN_PACKAGES.test(resolved)) {
    process.stderr.write(`forbidden in a bundle: ${request} (${path.relative(process.cwd(), resolved)})\n`);
    process.exit(70);
  }
  return resolved;
};
