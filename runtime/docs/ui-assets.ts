// The browser files of the pages' UIs: Scalar (/docs, /reference), Swagger UI (/swagger) and uPlot (the dashboard's
// charts). The package build copies them gzipped into lib/runtime/docs/vendor (bin/build-package.js), so an installed
// Tessera serves them offline without @scalar/api-reference (165 MB of dependencies for one browser file),
// swagger-ui-dist or uplot (issue 28); a checkout running its TypeScript sources reads them from those packages, its
// devDependencies.
import fs from 'node:fs';
import path from 'node:path';
import type { RequestHandler } from 'express';
import { escapeHtml } from './escape-html';
import { sendHtml } from './html-page';
import { staticAsset } from './static-asset';

export interface UiAsset {
  /** The file's name under vendor/ (and in the URL the page loads it from). */
  readonly file: string;
  /** The package it comes from, and its path there. */
  readonly from: { readonly package: string; readonly path: string };
  readonly contentType: string;
}

const JAVASCRIPT = 'text/javascript; charset=utf-8';

/** Every vendored file; bin/build-package.js copies exactly these, with their packages' licences. */
export const UI_ASSETS = {
  scalar: { file: 'scalar.js', from: { package: '@scalar/api-reference', path: 'dist/browser/standalone.js' }, contentType: JAVASCRIPT },
  swaggerBundle: { file: 'swagger-ui-bundle.js', from: { package: 'swagger-ui-dist', path: 'swagger-ui-bundle.js' }, contentType: JAVASCRIPT },
  swaggerPreset: { file: 'swagger-ui-standalone-preset.js', from: { package: 'swagger-ui-dist', path: 'swagger-ui-standalone-preset.js' }, contentType: JAVASCRIPT },
  swaggerStyles: { file: 'swagger-ui.css', from: { package: 'swagger-ui-dist', path: 'swagger-ui.css' }, contentType: 'text/css; charset=utf-8' },
  uplotScript: { file: 'uPlot.iife.min.js', from: { package: 'uplot', path: 'dist/uPlot.iife.min.js' }, contentType: JAVASCRIPT },
  uplotStyles: { file: 'uPlot.min.css', from: { package: 'uplot', path: 'dist/uPlot.min.css' }, contentType: 'text/css; charset=utf-8' },
} as const satisfies Record<string, UiAsset>;

/** Where the package build puts the files, beside this module in lib/. */
export const VENDOR_DIR = path.join(__dirname, 'vendor');

/** The file on disk: vendored (gzipped), else from its package (a checkout's devDependency); null when neither is there. */
export function uiAssetPath(asset: UiAsset): { file: string; isGzipped: boolean } | null {
  const vendored = path.join(VENDOR_DIR, `${asset.file}.gz`);
  if (fs.existsSync(vendored)) return { file: vendored, isGzipped: true };
  const file = packageAssetPath(asset);
  return file === null ? null : { file, isGzipped: false };
}

/** The file in the package it comes from, with that package's folder; null when the package is not installed. */
export function packageAssetPath(asset: UiAsset): string | null {
  try {
    // Resolved from the package's folder: packages whose `exports` name neither the file nor package.json still resolve.
    const entry = require.resolve(asset.from.package, { paths: [__dirname] });
    const marker = `${path.sep}node_modules${path.sep}`;
    const file = path.join(entry.slice(0, entry.lastIndexOf(marker) + marker.length) + asset.from.package, asset.from.path);
    return fs.existsSync(file) ? file : null;
  } catch {
    return null;
  }
}

/** Serves the asset's file, or the missing-asset page when it has none. */
export function uiAssetRoute(asset: UiAsset, page: string): RequestHandler {
  const found = uiAssetPath(asset);
  return found === null ? missingUiAssetPage(asset, page) : staticAsset(found.file, asset.contentType, found.isGzipped);
}

/** Answers `page` with `send`, or, when one of its assets is missing, 503 with a page naming what to install. */
export function uiPageRoute(assets: readonly UiAsset[], page: string, send: RequestHandler): RequestHandler {
  const missing = assets.find((asset) => uiAssetPath(asset) === null);
  return missing === undefined ? send : missingUiAssetPage(missing, page);
}

/** One sentence naming the missing file and its package, never a stack (README "Documentation pages offline"). */
function missingUiAssetPage(asset: UiAsset, page: string): RequestHandler {
  const message =
    `The ${page} page needs ${asset.from.package}'s ${asset.from.path}, which this installation lacks: ` +
    'reinstall tessera-api (its package carries the file), or in a checkout of Tessera run npm install.';
  const html = `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>Documentation page unavailable</title></head><body><p>${escapeHtml(message)}</p></body></html>\n`;
  return (_req, res) => {
    res.status(503);
    sendHtml(res, html);
  };
}
