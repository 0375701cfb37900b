// The second interactive documentation page at `swaggerPath` (spec §4.2, default /swagger): Swagger UI reading
// `openApiPath`, its browser files served from those Tessera carries (ui-assets.ts), started by assets/swagger-page.js.
import path from 'node:path';
import type { Express } from 'express';
import { securityHeaders } from './content-security-policy';
import { renderHtmlPage, sendHtml } from './html-page';
import { staticAsset } from './static-asset';
import { UI_ASSETS, uiAssetRoute, uiPageRoute } from './ui-assets';

export interface SwaggerPageOptions {
  path: string;
  title: string;
  openApiPath: string;
}

const SWAGGER_ASSETS = [UI_ASSETS.swaggerStyles, UI_ASSETS.swaggerBundle, UI_ASSETS.swaggerPreset];

/** Swagger UI's options; the page script adds its presets, plugins and layout (functions, not JSON). */
export function swaggerConfiguration(url: string): Record<string, unknown> {
  return {
    url,
    dom_id: '#swagger-ui',
    deepLinking: true,
    // The default validator badge loads an image from validator.swagger.io: off, the page stays offline.
    validatorUrl: null,
    persistAuthorization: false,
    // Swagger UI's own default, said here: a `?url=` or `?configUrl=` in the address cannot point the page elsewhere.
    queryConfigEnabled: false,
  };
}

export function mountSwaggerPage(app: Express, options: SwaggerPageOptions): void {
  const headers = securityHeaders();
  // The page loads its files relatively (./swagger-ui.css), as Swagger UI's own page does: it is served at `<path>/`.
  const html = renderHtmlPage({
    title: options.title,
    stylesheets: ['./swagger-ui.css', './swagger-page.css'],
    scripts: ['./swagger-ui-bundle.js', './swagger-ui-standalone-preset.js', './swagger-ui-init.js'],
    config: { swagger: swaggerConfiguration(options.openApiPath) },
    body: '<div id="swagger-ui"></div>',
  });
  const page = uiPageRoute(SWAGGER_ASSETS, options.path, (_req, res) => sendHtml(res, html));
  app.get(options.path, headers, (req, res, next) => {
    if (req.path.endsWith('/')) {
      page(req, res, next);
      return;
    }
    const queryStart = req.originalUrl.indexOf('?');
    const query = queryStart === -1 ? '' : req.originalUrl.slice(queryStart);
    res.redirect(301, `${options.path}/${query}`);
  });
  // Only the files the page loads (never a package's demo page or source maps).
  for (const asset of SWAGGER_ASSETS) app.get(`${options.path}/${asset.file}`, headers, uiAssetRoute(asset, options.path));
  app.get(`${options.path}/swagger-ui-init.js`, headers, staticAsset(path.join(__dirname, 'assets', 'swagger-page.js'), 'text/javascript; charset=utf-8'));
  app.get(`${options.path}/swagger-page.css`, headers, staticAsset(path.join(__dirname, 'assets', 'swagger-page.css'), 'text/css; charset=utf-8'));
}
