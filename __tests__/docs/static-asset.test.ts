// A file Tessera carries gzipped (the UI files the package build vendors) is served like any other: gzip as stored
// to a browser that accepts it, the original bytes to one that does not, each with its own ETag.
import express from 'express';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { staticAsset } from '../../runtime/docs/static-asset';

function rawGet(url: string, headers: Record<string, string>): Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('staticAsset of a gzipped file', () => {
  it('sends the stored gzip to browsers that accept it and the original bytes to the others', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-static-asset-'));
    const original = Buffer.from('window.answer = 42;\n'.repeat(200));
    const stored = zlib.gzipSync(original, { level: 9 });
    fs.writeFileSync(path.join(folder, 'asset.js.gz'), stored);
    const app = express();
    app.get('/asset.js', staticAsset(path.join(folder, 'asset.js.gz'), 'text/javascript; charset=utf-8', true));
    const server = app.listen(0);
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/asset.js`;
      const plain = await rawGet(url, {});
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.equals(original)).toBe(true);
      const gzipped = await rawGet(url, { 'accept-encoding': 'gzip' });
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      expect(gzipped.body.equals(stored)).toBe(true);
      expect(gzipped.headers.etag).not.toBe(plain.headers.etag);
    } finally {
      server.close();
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
