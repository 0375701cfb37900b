{{header}}
'use strict';
// Starts the bundled server: `node server.js`, or `node --disallow-code-generation-from-strings server.js`
// (nothing here compiles code at run time). The entry is TypeScript, so tsx's CommonJS hook comes first;
// tsx is a dependency of tessera.
require('tsx/cjs');

const path = require('node:path');
const { startBundle } = require('tessera/bin/start-bundle');

{{start}}
