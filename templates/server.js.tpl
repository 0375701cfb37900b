{{header}}
'use strict';
// Starts the bundled server: `node server.js`, or `node --disallow-code-generation-from-strings server.js`
// (nothing here compiles code at run time). It needs this folder and the application's node_modules only.

const path = require('node:path');
const { startBundle } = require('tessera-api/bundle');

{{start}}
