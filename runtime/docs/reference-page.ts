// The reference page (spec §4.2, §4.3 `reference`): an APIs tab that renders this server's OpenAPI
// document or an extra one with Scalar, and a Docs tab with the `documentation` folder's pages.
import path from 'node:path';
import type { Express, RequestHandler } from 'express';
import { TesseraError } from '../errors';
import { securityHeaders } from './content-security-policy';
import type { DocumentationSite } from './documentation-site';
import { escapeHtml } from './escape-html';
import { renderHtmlPage, sendHtml } from './html-page';
import { resolveReferenceDocuments } from './reference-documents';
import { scalarConfiguration } from './scalar-configuration';
import { staticAsset } from './static-asset';
import { UI_ASSETS, uiAssetRoute, uiPageRoute } from './ui-assets';

const ASSETS = path.join(__dirname, 'assets');
const JAVASCRIPT = 'text/javascript; charset=utf-8';

export interface ReferencePageOptions {
  path: string;
  title: string;
  openApiPath: string;
  documents: unknown;
  /** The `documentation` folder, or null when the option is not set. */
  documentation: DocumentationSite | null;
}

export function mountReferencePage(app: Express, options: ReferencePageOptions): void {
  const base = options.path;
  const documents = resolveReferenceDocuments(options.documents, base);
  const headers = securityHeaders(documents.origins);
  const apis = [{ name: options.title, url: options.openApiPath }, ...documents.entries];
  const html = renderHtmlPage({
    title: options.title,
    stylesheets: [`${base}/reference-page.css`],
    scripts: [`${base}/scalar.js`, `${base}/reference-page.js`],
    config: {
      base,
      apis,
      docs: options.documentation === null ? null : options.documentation.pages,
      scalar: scalarConfiguration(options.openApiPath, options.title),
    },
    body:
      '<header class="tessera-header">' +
      `<h1 class="tessera-title">${escapeHtml(options.title)}</h1>` +
      '<nav class="tessera-tabs" role="tablist">' +
      '<button type="button" role="tab" data-tab="apis">APIs</button>' +
      '<button type="button" role="tab" data-tab="docs">Docs</button>' +
      '</nav>' +
      '<nav class="tessera-apis" aria-label="APIs"></nav>' +
      '</header>' +
      '<main>' +
      '<section id="tessera-apis-panel" role="tabpanel"><div id="tessera-api-reference"></div></section>' +
      '<section id="tessera-docs-panel" role="tabpanel" hidden>' +
      '<nav class="tessera-docs-nav" aria-label="Documentation"></nav>' +
      '<article class="tessera-doc"></article>' +
      '</section>' +
      '</main>',
  });

  app.get(base, headers, uiPageRoute([UI_ASSETS.scalar], base, (_req, res) => sendHtml(res, html)));
  app.get(`${base}/scalar.js`, headers, uiAssetRoute(UI_ASSETS.scalar, base));
  app.get(`${base}/reference-page.js`, headers, staticAsset(path.join(ASSETS, 'reference-page.js'), JAVASCRIPT));
  app.get(`${base}/reference-page.css`, headers, staticAsset(path.join(ASSETS, 'reference-page.css'), 'text/css; charset=utf-8'));
  if (documents.inline.size > 0) app.get(`${base}/documents/:file`, headers, inlineDocuments(documents.inline));
  app.get(`${base}/docs/page`, headers, documentationPage(options.documentation));
}

function inlineDocuments(inline: Map<number, string>): RequestHandler {
  return (req, res, next) => {
    const match = /^(\d{1,4})\.json$/.exec(String(req.params.file));
    const body = match === null ? undefined : inline.get(Number(match[1]));
    if (body === undefined) return next(new TesseraError('NOT_FOUND', 'no such document'));
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Cache-Control', 'no-cache');
    res.end(body);
  };
}

/** `GET <page>/docs/page?slug=guides/deploy` → `{ slug, title, html, error? }`; a slug not in the list is NOT_FOUND. */
function documentationPage(site: DocumentationSite | null): RequestHandler {
  return (req, res, next) => {
    const slug = req.query.slug;
    if (site === null || typeof slug !== 'string') return next(new TesseraError('NOT_FOUND', 'no such documentation page'));
    site.render(slug).then((page) => {
      if (page === null) return next(new TesseraError('NOT_FOUND', 'no such documentation page'));
      res.setHeader('Cache-Control', 'no-cache');
      res.json(page);
    }, next);
  };
}
