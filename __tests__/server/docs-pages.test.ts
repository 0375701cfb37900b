// The documentation pages over HTTP (spec §4.2, §4.3): where they are mounted and when not, their titles
// escaped, their Content-Security-Policy, assets served from the installed packages, the reference
// page's extra documents and Docs endpoint, and the setup errors of their options.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { createServer, SetupError } from 'tessera-api';
import { request } from '../helpers/request';
import { useServerTestbed } from '../helpers/server-testbed';

const REPO_ROOT = path.resolve(__dirname, '../..');
const SCALAR_BUNDLE = path.join(REPO_ROOT, 'node_modules/@scalar/api-reference/dist/browser/standalone.js');

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** A GET without fetch's automatic decompression, to see exactly what the server sent. */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

/** The JSON configuration a page embeds for its script. */
function pageConfig(html: string): any {
  const match = /<script type="application\/json" id="tessera-page-config">(.*?)<\/script>/s.exec(html);
  if (match === null) throw new Error('the page has no configuration');
  return JSON.parse(match[1]);
}

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

const BILLING = { openapi: '3.1.0', info: { title: 'Billing', version: '1.0.0' }, paths: {} };

describe('documentation pages', () => {
  const testbed = useServerTestbed();

  describe('mounting', () => {
    it('serves /docs and /swagger by default, and no /reference', async () => {
      const { url } = await testbed.start();
      const docs = await request(`${url}/docs`);
      expect(docs.status).toBe(200);
      expect(docs.contentType).toBe('text/html; charset=utf-8');
      expect(docs.text).toContain('<title>Tessera API Mesh</title>');
      expect(pageConfig(docs.text).scalar).toMatchObject({ url: '/openapi.json', withDefaultFonts: false, telemetry: false });

      const swagger = await rawGet(`${url}/swagger`);
      expect(swagger.status).toBe(301);
      expect(swagger.headers.location).toBe('/swagger/');
      const swaggerPage = await request(`${url}/swagger/`);
      expect(swaggerPage.status).toBe(200);
      expect(swaggerPage.text).toContain('<title>Tessera API Mesh</title>');
      expect(swaggerPage.text).toContain('<script src="./swagger-ui-bundle.js">');

      const reference = await request(`${url}/reference`);
      expect(reference.status).toBe(404);
      expect(reference.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
    });

    it("serves only the Swagger UI files the page loads, not swagger-ui-dist's demo page", async () => {
      const { url } = await testbed.start();
      for (const file of ['index.html', 'swagger-initializer.js', 'package.json', 'swagger-ui.js.map', 'favicon-32x32.png']) {
        const answer = await request(`${url}/swagger/${file}`);
        expect([file, answer.status, answer.body?.error?.code]).toEqual([file, 404, 'NOT_FOUND']);
      }
      expect((await request(`${url}/swagger/swagger-ui.css`)).contentType).toMatch(/^text\/css/);
    });

    it('keeps the query string when it sends /swagger to /swagger/', async () => {
      const { url } = await testbed.start();
      expect((await rawGet(`${url}/swagger?tab=x`)).headers.location).toBe('/swagger/?tab=x');
    });

    it('mounts the pages at the root whatever the prefix', async () => {
      const { url } = await testbed.start({ prefix: '/v2' });
      expect((await request(`${url}/docs`)).status).toBe(200);
      expect((await request(`${url}/swagger/`)).status).toBe(200);
      expect((await request(`${url}/v2/docs`)).status).toBe(404);
    });

    it('mounts them at docsPath, swaggerPath and reference.path, and points them at openApiPath', async () => {
      const { url } = await testbed.start({ docsPath: '/api-docs', swaggerPath: '/tools/swagger', openApiPath: '/spec.json', reference: { path: '/ref' } });
      const docs = await request(`${url}/api-docs`);
      expect(pageConfig(docs.text).scalar.url).toBe('/spec.json');
      expect(docs.text).toContain('<script src="/api-docs/scalar.js"></script>');
      const swagger = await request(`${url}/tools/swagger/`);
      expect(pageConfig(swagger.text).swagger).toMatchObject({ url: '/spec.json', validatorUrl: null, queryConfigEnabled: false });
      expect(swagger.text).toContain('<script src="./swagger-ui-init.js"></script>');
      const reference = await request(`${url}/ref`);
      expect(pageConfig(reference.text).apis).toEqual([{ name: 'Tessera API Mesh', url: '/spec.json' }]);
      for (const path of ['/docs', '/swagger/', '/reference']) expect((await request(`${url}${path}`)).status).toBe(404);
    });

    it('mounts the reference page for `true`, and for an object only when it names a path', async () => {
      expect((await request(`${(await testbed.start({ reference: true })).url}/reference`)).status).toBe(200);
      const withoutPath = await testbed.start({ reference: { documents: [{ name: 'Billing', document: BILLING }] } });
      expect((await request(`${withoutPath.url}/reference`)).status).toBe(404);
      expect((await request(`${withoutPath.url}/reference/documents/0.json`)).status).toBe(404);
    });

    it('mounts none of them, nor the OpenAPI document, with docs: false', async () => {
      const { url } = await testbed.start({ docs: false, reference: true });
      for (const path of ['/docs', '/docs/scalar.js', '/swagger', '/swagger/', '/swagger/swagger-ui-bundle.js', '/reference', '/openapi.json']) {
        const answer = await request(`${url}${path}`);
        expect([path, answer.status, answer.body?.error?.code]).toEqual([path, 404, 'NOT_FOUND']);
      }
    });
  });

  describe('titles', () => {
    const title = '</title><script>alert(1)</script> & "Shop"';

    it('writes the title option escaped into every page', async () => {
      const { url } = await testbed.start({ title, reference: true });
      for (const path of ['/docs', '/swagger/', '/reference']) {
        const { text } = await request(`${url}${path}`);
        expect(text).toContain('<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Shop&quot;</title>');
        expect(text).not.toContain('<script>alert(1)');
      }
    });

    it('writes a title with `$` into the Swagger UI page as it is, not as a replacement pattern', async () => {
      const { url } = await testbed.start({ title: "Pay$` $& $' $$ API" });
      const { text } = await request(`${url}/swagger/`);
      const written = /<title>([^<]*)<\/title>/.exec(text)![1];
      expect(written.replace(/&#36;/g, '$')).toBe('Pay$` $&amp; $&#39; $$ API');
    });

    it('embeds it in the page configuration as JSON that cannot end the script element', async () => {
      const { url } = await testbed.start({ title, reference: true });
      const { text } = await request(`${url}/reference`);
      const config = /id="tessera-page-config">(.*?)<\/script>/s.exec(text)![1];
      expect(config).not.toContain('<');
      expect(JSON.parse(config).apis[0].name).toBe(title);
    });
  });

  describe('Content-Security-Policy', () => {
    it('restricts every page and asset to this origin, with no inline script', async () => {
      const { url } = await testbed.start({ reference: true });
      for (const path of ['/docs', '/docs/scalar.js', '/swagger/', '/swagger/swagger-ui-bundle.js', '/swagger/swagger-ui-init.js', '/reference', '/reference/reference-page.js']) {
        const answer = await rawGet(`${url}${path}`);
        expect([path, answer.status]).toEqual([path, 200]);
        const policy = String(answer.headers['content-security-policy']);
        expect(policy).toContain("default-src 'self'");
        expect(policy).toContain("script-src 'self';");
        expect(policy).toContain("connect-src 'self';");
        expect(policy).toContain("font-src 'self' data:");
        expect(policy).toContain("object-src 'none'");
        expect(answer.headers['x-content-type-options']).toBe('nosniff');
      }
    });

    it("lets the reference page fetch an extra document's origin, and nothing else", async () => {
      const { url } = await testbed.start({
        reference: { path: '/reference', documents: [{ name: 'Partner', url: 'https://api.partner.example/openapi.json' }] },
      });
      const answer = await rawGet(`${url}/reference`);
      expect(answer.headers['content-security-policy']).toContain("connect-src 'self' https://api.partner.example;");
      expect((await rawGet(`${url}/docs`)).headers['content-security-policy']).toContain("connect-src 'self';");
    });
  });

  describe('assets', () => {
    it("serves Scalar's bundle from the installed package, gzipped when the browser accepts it", async () => {
      const { url } = await testbed.start();
      const onDisk = fs.readFileSync(SCALAR_BUNDLE);
      const plain = await rawGet(`${url}/docs/scalar.js`);
      expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.equals(onDisk)).toBe(true);
      const gzipped = await rawGet(`${url}/docs/scalar.js`, { 'accept-encoding': 'gzip, deflate' });
      expect(gzipped.headers['content-encoding']).toBe('gzip');
      expect(gzipped.headers.vary).toBe('Accept-Encoding');
      expect(gzipped.body.length).toBeLessThan(onDisk.length / 2);
      expect(zlib.gunzipSync(gzipped.body).equals(onDisk)).toBe(true);
    });

    it('answers 304 to a request that already holds the current ETag', async () => {
      const { url } = await testbed.start();
      const first = await rawGet(`${url}/docs/scalar-page.js`);
      expect(first.headers['cache-control']).toBe('public, max-age=3600');
      const again = await rawGet(`${url}/docs/scalar-page.js`, { 'if-none-match': String(first.headers.etag) });
      expect(again.status).toBe(304);
      expect(again.body.length).toBe(0);
    });

    it('gives the gzipped and the plain body their own ETag, and answers 304 to either in an If-None-Match list', async () => {
      const { url } = await testbed.start();
      const plain = await rawGet(`${url}/docs/scalar-page.js`);
      const gzipped = await rawGet(`${url}/docs/scalar-page.js`, { 'accept-encoding': 'gzip' });
      const plainTag = String(plain.headers.etag);
      const gzippedTag = String(gzipped.headers.etag);
      // RFC 9110 §8.8.3: a strong validator names one representation, and a content coding makes another.
      expect(gzippedTag).not.toBe(plainTag);
      const list = `"stale", W/${gzippedTag}, ${plainTag}`;
      expect((await rawGet(`${url}/docs/scalar-page.js`, { 'if-none-match': list })).status).toBe(304);
      expect((await rawGet(`${url}/docs/scalar-page.js`, { 'if-none-match': list, 'accept-encoding': 'gzip' })).status).toBe(304);
      // Each tag revalidates only its own representation.
      expect((await rawGet(`${url}/docs/scalar-page.js`, { 'if-none-match': gzippedTag })).status).toBe(200);
      expect((await rawGet(`${url}/docs/scalar-page.js`, { 'if-none-match': plainTag, 'accept-encoding': 'gzip' })).status).toBe(200);
    });
  });

  describe('the reference page', () => {
    it("lists this server's document first, then the extra documents, serving inline ones itself", async () => {
      const { url } = await testbed.start({
        title: 'Shop',
        reference: {
          path: '/reference',
          documents: [
            { name: 'Billing', document: BILLING },
            { name: 'Status', url: '/status/openapi.json' },
          ],
        },
      });
      const config = pageConfig((await request(`${url}/reference`)).text);
      expect(config.apis).toEqual([
        { name: 'Shop', url: '/openapi.json' },
        { name: 'Billing', url: '/reference/documents/0.json' },
        { name: 'Status', url: '/status/openapi.json' },
      ]);
      expect(config.docs).toBeNull();
      const inline = await request(`${url}/reference/documents/0.json`);
      expect(inline.body).toEqual(BILLING);
      for (const file of ['1.json', '0.yaml', '..%2F..%2Fpackage.json']) expect((await request(`${url}/reference/documents/${file}`)).status).toBe(404);
    });

    it('answers the Docs tab pages by slug only: an unknown slug or a path is NOT_FOUND', async () => {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-reference-docs-'));
      fs.writeFileSync(path.join(folder, 'guide.md'), '# Guide\n');
      try {
        const { url } = await testbed.start({ reference: true, documentation: folder });
        expect(pageConfig((await request(`${url}/reference`)).text).docs).toEqual([{ slug: 'guide', title: 'Guide' }]);
        for (const slug of ['nope', '../package.json', '/etc/passwd', 'guide.md']) {
          const answer = await request(`${url}/reference/docs/page?slug=${encodeURIComponent(slug)}`);
          expect([slug, answer.status, answer.body]).toEqual([slug, 404, { error: { code: 'NOT_FOUND', message: 'no such documentation page' } }]);
        }
        expect((await request(`${url}/reference/docs/page`)).status).toBe(404);
      } finally {
        fs.rmSync(folder, { recursive: true, force: true });
      }
    });
  });

  describe('setup errors', () => {
    it.each([
      [{ docsPath: 'docs' }, 'docsPath "docs" must be "/"-separated path segments, such as "/docs"'],
      [{ swaggerPath: '/swagger/' }, 'swaggerPath "/swagger/" must be "/"-separated path segments'],
      [{ reference: { path: '/a b' } }, 'reference.path "/a b" must be "/"-separated path segments'],
      [{ docsPath: '/ui', swaggerPath: '/ui' }, 'docsPath and swaggerPath are both "/ui"'],
      [{ reference: { path: '/docs' } }, 'docsPath and reference.path are both "/docs"'],
      [{ openApiPath: '/docs' }, 'openApiPath and docsPath are both "/docs"'],
      [{ reference: { path: '/ref', theme: 'dark' } }, 'reference.theme is not an option (expected path and documents)'],
      [{ reference: { path: '/ref', documents: [{ name: 'X' }] } }, 'reference.documents[0] needs exactly one of url and document'],
    ])('createServer(%j) throws a SetupError', (options, message) => {
      const error = thrownBy(() => createServer({ requestLogging: false, ...(options as object) }));
      expect(error).toBeInstanceOf(SetupError);
      expect((error as Error).message).toContain(message);
    });

    it('checks the documentation folder when the reference page is mounted, and leaves it alone otherwise', () => {
      const missing = path.join(os.tmpdir(), 'tessera-no-such-folder');
      expect(() => createServer({ requestLogging: false, reference: true, documentation: missing })).toThrow(`documentation: the folder ${missing} does not exist`);
      expect(() => createServer({ requestLogging: false, documentation: missing })).not.toThrow();
      expect(() => createServer({ requestLogging: false, docs: false, reference: true, documentation: missing })).not.toThrow();
    });

    it('resolves a relative documentation folder against process.cwd() outside the CLI', () => {
      const relative = path.relative(process.cwd(), path.join(REPO_ROOT, 'fixtures/blog/docs'));
      expect(() => createServer({ requestLogging: false, reference: true, documentation: relative })).not.toThrow();
    });
  });
});
