// Browser script of the /docs page: mounts Scalar with the configuration the server embedded as JSON.
'use strict';
(function () {
  var config = JSON.parse(document.getElementById('tessera-page-config').textContent);
  window.Scalar.createApiReference('#tessera-docs', config.scalar);
})();
