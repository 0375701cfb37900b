// The HTML shell shared by the /docs and /reference pages: escaped title, same-origin stylesheets and
// scripts only, and the page's configuration as inert JSON that the page's own script reads.
import type { Response } from 'express';
import { escapeHtml, jsonForScript } from './escape-html';

export interface HtmlPage {
  title: string;
  stylesheets?: string[];
  scripts: string[];
  /** Read by the page script from `#tessera-page-config`. */
  config: unknown;
  /** Trusted markup built by the caller (every value in it already escaped). */
  body: string;
}

export function renderHtmlPage(page: HtmlPage): string {
  const stylesheets = (page.stylesheets ?? []).map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join('');
  const scripts = page.scripts.map((src) => `<script src="${escapeHtml(src)}"></script>`).join('');
  return (
    '<!doctype html>\n' +
    '<html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(page.title)}</title>` +
    // An empty icon: without it the browser asks for /favicon.ico, which the API answers 404.
    '<link rel="icon" href="data:,">' +
    `${stylesheets}</head><body>${page.body}` +
    `<script type="application/json" id="tessera-page-config">${jsonForScript(page.config)}</script>` +
    `${scripts}</body></html>\n`
  );
}

/** Sends a page: HTML, never cached without revalidation (it embeds the current configuration). */
export function sendHtml(res: Response, html: string): void {
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  res.end(html);
}
