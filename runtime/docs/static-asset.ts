// Serves one file Tessera carries (a UI bundle, a stylesheet, gzipped or not) or of runtime/docs/assets: read
// once on first request, answered with an ETag, revalidation, and gzip when the browser accepts it.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { RequestHandler } from 'express';

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

interface LoadedAsset {
  body: Buffer;
  gzipped: Buffer;
  etag: string;
  /** A strong ETag names one representation: the gzipped body has its own. */
  gzippedEtag: string;
}

// One copy per file for the process: /docs and /reference (and every app) share Scalar's 4 MB bundle.
const loaded = new Map<string, Promise<LoadedAsset>>();

async function load(filePath: string, isGzipped: boolean): Promise<LoadedAsset> {
  const read = await fs.readFile(filePath);
  // A file the package build stored gzipped (ui-assets.ts) is sent as it is to the browsers that accept gzip.
  const body = isGzipped ? await gunzip(read) : read;
  const hash = createHash('sha256').update(body).digest('base64url').slice(0, 27);
  return { body, gzipped: isGzipped ? read : await gzip(body, { level: 6 }), etag: `"${hash}"`, gzippedEtag: `"${hash}-gzip"` };
}

/** `isGzipped`: the file holds the gzipped asset (`.gz`). */
export function staticAsset(filePath: string, contentType: string, isGzipped = false): RequestHandler {
  return (req, res, next) => {
    let loading = loaded.get(filePath);
    if (loading === undefined) {
      loading = load(filePath, isGzipped);
      loaded.set(filePath, loading);
    }
    loading.then((asset) => {
      res.setHeader('Content-Type', contentType);
      // Unversioned URLs: cache, but revalidate after an hour so an upgraded package is picked up.
      res.setHeader('Cache-Control', 'public, max-age=3600');
      res.setHeader('Vary', 'Accept-Encoding');
      const isGzip = req.acceptsEncodings('gzip', 'identity') === 'gzip';
      res.setHeader('ETag', isGzip ? asset.gzippedEtag : asset.etag);
      // req.fresh compares If-None-Match as RFC 9110 says: a list, weak comparison, `*`.
      if (req.fresh) {
        res.status(304).end();
        return;
      }
      if (isGzip) res.setHeader('Content-Encoding', 'gzip');
      res.end(isGzip ? asset.gzipped : asset.body);
    }, (error: unknown) => {
      loaded.delete(filePath); // a missing file may appear (a reinstall); try again next time
      next(error);
    });
  };
}
