// Preloaded into a bundle's process by the bundle tests (`node --require`): exits with code 70 the moment
// anything resolves tessera's generator, ts-morph or typescript, none of which a bundle may load.
'use strict';
const Module = require('node:module');
const path = require('node:path');

const GENERATOR_FOLDER = path.join(__dirname, '..', '..', 'generator') + path.sep;
const FORBIDDEN_PACKAGES = /[\\/]node_modules[\\/](ts-morph|@ts-morph[\\/]common|typescript)[\\/]/;
const resolveFilename = Module._resolveFilename;

Module._resolveFilename = function resolveAllowed(request, ...rest) {
  const resolved = resolveFilename.call(this, request, ...rest);
  if (resolved.startsWith(GENERATOR_FOLDER) || FORBIDDEN_PACKAGES.test(resolved)) {
    process.stderr.write(`forbidden in a bundle: ${request} (${path.relative(process.cwd(), resolved)})\n`);
    process.exit(70);
  }
  return resolved;
};
