// A real dynamic import() for content-libraries.ts in a plain CommonJS file, which tsx and TypeScript leave as
// is (they rewrite import() in .ts files), so no Function: bundles run with --disallow-code-generation-from-strings.
'use strict';

module.exports = function importModule(url) {
  return import(url);
};
