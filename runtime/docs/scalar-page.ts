// The interactive documentation page at `docsPath` (spec §4.2, default /docs): Scalar's API reference
// over the server's OpenAPI document, its browser bundle served from the files Tessera carries (ui-assets.ts).
import path from 'node:path';
import type { Express } from 'express';
import { securityHeaders } from './content-security-policy';
import { renderHtmlPage, sendHtml } from './html-page';
import { scalarConfiguration } from './scalar-configuration';
import { staticAsset } from './static-asset';
import { UI_ASSETS, uiAssetRoute, uiPageRoute } from './ui-assets';

const JAVASCRIPT = 'text/javascript; charset=utf-8';

export interface ScalarPageOptions {
  path: string;
  title: string;
  openApiPath: string;
}

export function mountScalarPage(app: Express, options: ScalarPageOptions): void {
  const headers = securityHeaders();
  const html = renderHtmlPage({
    title: options.title,
    scripts: [`${options.path}/scalar.js`, `${options.path}/scalar-page.js`],
    config: { scalar: scalarConfiguration(options.openApiPath, options.title) },
    body: '<div id="tessera-docs"></div>',
  });
  app.get(options.path, headers, uiPageRoute([UI_ASSETS.scalar], options.path, (_req, res) => sendHtml(res, html)));
  app.get(`${options.path}/scalar.js`, headers, uiAssetRoute(UI_ASSETS.scalar, options.path));
  app.get(`${options.path}/scalar-page.js`, headers, staticAsset(path.join(__dirname, 'assets', 'scalar-page.js'), JAVASCRIPT));
}
