{{header}}
'use strict';

{{validation}}

{{helpers}}

module.exports = function createHandler(deps) {
  {{setup}}

  {{handler}}
};
