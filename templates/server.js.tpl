{{header}}
'use strict';
// Starts the bundled server: `node server.js`, or `node --disallow-code-generation-from-strings server.js`
// (nothing here compiles code at run time). It needs this folder and the application's node_modules only.

const path = require('node:path');
const { startBundle } = loadTessera();

{{start}}

// Tessera comes from the application's node_modules, installed with the driver from its package.json: a copy of
// this folder alone has neither, and says so in one line rather than Node's stack trace.
function loadTessera() {
  try {
    return require('tessera-api/bundle');
  } catch (error) {
    const code = error !== null && typeof error === 'object' ? error.code : undefined;
    const isTesseraMissing = code === 'MODULE_NOT_FOUND' && String(error.message).startsWith("Cannot find module 'tessera-api/bundle'");
    if (!isTesseraMissing && code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED') throw error;
    const folder = path.relative(process.cwd(), __dirname).split(path.sep).join('/') || '.';
    const why = isTesseraMissing ? 'the package tessera-api, which is not installed where it runs' : 'tessera-api/bundle, which the installed tessera-api does not provide (an older version)';
    process.stderr.write(`tessera: the bundle ${folder} needs ${why}: copy the application's package.json and package-lock.json beside the bundle's folder and run npm ci --omit=dev there (it installs tessera-api and the database driver)\n`);
    process.exit(1);
  }
}
