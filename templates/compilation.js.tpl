{{header}}
'use strict';
// The object createServer({ compilation }) takes: per crud resource, keyed by label, the fingerprint of the
// definitions its validators come from, those validators and its fixed statements; per mounted route, keyed by
// operationId, its handler factory. Each module loads when first used (a crud route's on its first request). A
// route or resource missing here, or one built from other definitions, stops the server at start ("run tessera
// build again").

module.exports = {
  resources: {
    {{resources}}
  },
  handlers: {
    {{handlers}}
  },
};
