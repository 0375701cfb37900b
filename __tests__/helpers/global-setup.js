// Jest's global set-up: brings lib/ (the compiled package) up to date, because the CLI and bundle tests run
// built bundles with plain `node`, which load Tessera as an installed application would: from lib/.
'use strict';
const { execFileSync } = require('node:child_process');
const path = require('node:path');

module.exports = function buildPackage() {
  execFileSync(process.execPath, [path.join(__dirname, '..', '..', 'bin', 'build-package.js'), '--incremental'], { stdio: 'inherit' });
};
