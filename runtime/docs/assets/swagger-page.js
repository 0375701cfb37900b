// Browser script of the /swagger page: starts Swagger UI with the configuration the server embedded as JSON.
'use strict';
(function () {
  var config = JSON.parse(document.getElementById('tessera-page-config').textContent).swagger;
  config.presets = [window.SwaggerUIBundle.presets.apis, window.SwaggerUIStandalonePreset];
  config.plugins = [window.SwaggerUIBundle.plugins.DownloadUrl];
  config.layout = 'StandaloneLayout';
  window.ui = window.SwaggerUIBundle(config);
})();
