{{header}}
'use strict';
// The object createServer({ compilation }) takes: one handler factory per mounted route, keyed by
// operationId. A route missing here stops the server at start ("run tessera build again").

module.exports = {
  handlers: {
    {{handlers}}
  },
};
