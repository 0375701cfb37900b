{{header}}
'use strict';
// The object createServer({ compilation }) takes: one module per crud resource (its validators), keyed by
// label, and one handler factory per mounted route, keyed by operationId. A route or resource missing here,
// or one built from other definitions, stops the server at start ("run tessera build again").

module.exports = {
  resources: {
    {{resources}}
  },
  handlers: {
    {{handlers}}
  },
};
