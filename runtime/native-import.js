// A real dynamic import() in a plain CommonJS file, which tsx and TypeScript leave as is (they rewrite import()
// in .ts files): the CLI loads ES module entries with it, the docs their ESM-only libraries; no Function, so
// bundles still run with --disallow-code-generation-from-strings.
'use strict';

module.exports = function importModule(url) {
  return import(url);
};
