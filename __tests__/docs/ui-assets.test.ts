// The documentation UIs' browser files: found where the package build puts them or, in a checkout, in the packages
// they come from; a page whose file is missing answers 503 with one sentence naming the package, never a stack.
import express from 'express';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { UI_ASSETS, uiAssetPath, uiAssetRoute, uiPageRoute, type UiAsset } from '../../runtime/docs/ui-assets';
import { request } from '../helpers/request';

const MISSING: UiAsset = { file: 'missing.js', from: { package: 'no-such-ui-package', path: 'dist/missing.js' }, contentType: 'text/javascript' };

describe('documentation UI assets', () => {
  it('finds every file the pages load (from the devDependencies in a checkout)', () => {
    for (const asset of Object.values(UI_ASSETS)) {
      const found = uiAssetPath(asset);
      expect([asset.file, found !== null && fs.statSync(found.file).size > 1000]).toEqual([asset.file, true]);
    }
    expect(uiAssetPath(MISSING)).toBeNull();
  });

  it('answers a page and its file with 503 and a sentence naming the missing package', async () => {
    const app = express();
    app.get('/ui', uiPageRoute([UI_ASSETS.scalar, MISSING], '/ui', (_req, res) => res.send('the page')));
    app.get('/ui/missing.js', uiAssetRoute(MISSING, '/ui'));
    app.get('/ok', uiPageRoute([UI_ASSETS.scalar], '/ok', (_req, res) => res.send('the page')));
    const server = app.listen(0);
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      for (const path of ['/ui', '/ui/missing.js']) {
        const answer = await request(`${url}${path}`);
        expect([path, answer.status, answer.contentType]).toEqual([path, 503, 'text/html; charset=utf-8']);
        expect(answer.text).toContain("The /ui page needs no-such-ui-package&#39;s dist/missing.js, which this installation lacks: reinstall tessera-api");
      }
      expect((await request(`${url}/ok`)).text).toBe('the page');
    } finally {
      server.close();
    }
  });
});
