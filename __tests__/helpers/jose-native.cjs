// jose ships only an ES module; jest's module sandbox cannot load one without --experimental-vm-modules.
// Node's own CommonJS loader (Module._load, which jest leaves in place) requires it natively on Node >= 20.19,
// as the compiled package's require('jose') does outside jest.
'use strict';
const Module = require('node:module');
module.exports = Module._load(require.resolve('jose'), null, false);
