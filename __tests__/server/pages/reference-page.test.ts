// The reference page in a real headless Chromium with no network but 127.0.0.1: the APIs tab renders this
// server's document and the extra `documents` with Scalar; the Docs tab renders the blog's .md and .mdx
// guides, served by `tessera start` (relative `documentation` paths start at the entry's folder).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BROWSER_TEST_TIMEOUT, saveScreenshot, useBrowser } from '../../helpers/browser';
import { useServerTestbed } from '../../helpers/server-testbed';
import { startCli, type RunningCli } from '../../helpers/spawn-cli';
import { freePort } from '../../helpers/free-port';

/** A small OpenAPI document of another API, as a team would list next to its own. */
function extraDocument(title: string, tag: string, operationId: string, routePath: string) {
  return {
    openapi: '3.1.0',
    info: { title, version: '2.0.0' },
    paths: {
      [routePath]: {
        get: {
          tags: [tag],
          summary: operationId,
          operationId,
          responses: { '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object', properties: { ok: { type: 'boolean' } } } } } } },
        },
      },
    },
  };
}

const BILLING = extraDocument('Billing', 'billing.invoices', 'billing.invoices.list', '/invoices');
const STATUS = extraDocument('Status', 'status', 'status.ping', '/ping');

describe('the reference page APIs tab in a browser', () => {
  const browser = useBrowser();
  const testbed = useServerTestbed();

  const startWithDocuments = () =>
    testbed.start({
      title: 'Shop',
      reference: {
        path: '/reference',
        documents: [
          { name: 'Billing', document: BILLING },
          { name: 'Status', url: '/status/openapi.json' },
        ],
      },
      endpoints: [{ method: 'GET', path: '/status/openapi.json', handler: (_req, res) => void res.json(STATUS) }],
    });

  it("lists this server's document and the extra documents, and renders the one chosen", async () => {
    const server = await startWithDocuments();
    const { page, problems, requests, settled } = await browser.open();

    await page.goto(`${server.url}/reference`);
    const apis = page.getByRole('navigation', { name: 'APIs' });
    expect(await apis.getByRole('button').allTextContents()).toEqual(['Shop', 'Billing', 'Status']);
    await page.getByText('shop.categories.list').first().waitFor();
    await page.getByRole('button', { name: 'Open Group - shop.notes' }).waitFor();
    await settled();
    await saveScreenshot(page, 'reference-apis');

    await apis.getByRole('button', { name: 'Billing' }).click();
    await page.getByText('billing.invoices.list').first().waitFor();
    expect(new URL(page.url()).search).toBe('?tab=apis&api=1');
    expect(await apis.getByRole('button', { name: 'Billing' }).getAttribute('aria-pressed')).toBe('true');
    await expect(page.getByText('shop.categories.list').count()).resolves.toBe(0);

    await apis.getByRole('button', { name: 'Status' }).click();
    await page.getByText('status.ping').first().waitFor();
    await settled();

    expect(requests).toEqual(
      expect.arrayContaining([`GET ${server.url}/openapi.json`, `GET ${server.url}/reference/documents/0.json`, `GET ${server.url}/status/openapi.json`]),
    );
    expect(problems).toEqual([]);
  }, BROWSER_TEST_TIMEOUT);

  it('opens the document named in the address (?api=2)', async () => {
    const server = await startWithDocuments();
    const { page, problems, settled } = await browser.open();

    await page.goto(`${server.url}/reference?tab=apis&api=2`);
    await page.getByText('status.ping').first().waitFor();
    await settled();

    expect(await page.title()).toBe('Status');
    expect(problems).toEqual([]);
  }, BROWSER_TEST_TIMEOUT);

  it('shows a hostile title, document name and file name as text, never as markup', async () => {
    const hostile = '<img src=x onerror="window.hacked=1">';
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-docs-'));
    fs.writeFileSync(path.join(folder, `${hostile.replace(/"/g, '')}.md`), 'No heading: the title comes from the file name.\n');
    try {
      const server = await testbed.start({
        title: `${hostile} Shop`,
        reference: { path: '/reference', documents: [{ name: `${hostile} Billing`, document: BILLING }] },
        documentation: folder,
      });
      const { page, problems, settled } = await browser.open();

      await page.goto(`${server.url}/reference`);
      await page.getByText('shop.categories.list').first().waitFor();
      await settled();

      expect(await page.locator('.tessera-title').textContent()).toBe(`${hostile} Shop`);
      expect(await page.getByRole('navigation', { name: 'APIs' }).getByRole('button').allTextContents()).toEqual([`${hostile} Shop`, `${hostile} Billing`]);
      expect(await page.locator('.tessera-docs-nav a').allTextContents()).toEqual(['<img src=x onerror=window.hacked=1>']);
      expect(await page.locator('main img, header img').count()).toBe(0);
      expect(await page.evaluate(() => (globalThis as { hacked?: number }).hacked)).toBeUndefined();
      expect(problems).toEqual([]);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  }, BROWSER_TEST_TIMEOUT);
});

describe('the reference page Docs tab in a browser (fixtures/blog through tessera start)', () => {
  const browser = useBrowser();
  let cli: RunningCli;

  beforeAll(async () => {
    cli = await startCli(['start', 'fixtures/blog/app.ts', '--port', String(await freePort())], { BLOG_DATABASE: undefined });
  }, BROWSER_TEST_TIMEOUT);
  afterAll(async () => {
    await cli?.stop();
  });

  it('lists the guides and renders the .md page with its table and code', async () => {
    const { page, problems, settled } = await browser.open();

    // The CLI prints localhost; the page must talk to 127.0.0.1 only.
    const url = cli.url.replace('localhost', '127.0.0.1');
    await page.goto(`${url}/reference`);
    await page.getByRole('tab', { name: 'Docs' }).click();
    expect(await page.locator('.tessera-docs-nav a').allTextContents()).toEqual(['Getting started', 'Access policies']);
    const article = page.locator('article.tessera-doc');
    await article.getByRole('heading', { name: 'Getting started', level: 1 }).waitFor();
    await article.getByRole('cell', { name: 'bearer token, scoped to the owner' }).waitFor();
    expect(await article.locator('pre code').textContent()).toContain('curl -s -X POST localhost:4000/api/notes/query');
    expect(new URL(page.url()).search).toBe('?tab=docs');
    await settled();
    await saveScreenshot(page, 'reference-docs');

    expect(problems).toEqual([]);
  }, BROWSER_TEST_TIMEOUT);

  it('renders the .mdx page: its expressions run and its component comes from the components module', async () => {
    const { page, problems, settled } = await browser.open();

    const url = cli.url.replace('localhost', '127.0.0.1');
    await page.goto(`${url}/reference?tab=docs`);
    await page.getByRole('link', { name: 'Access policies' }).click();
    const article = page.locator('article.tessera-doc');
    await article.getByRole('heading', { name: 'Access policies', level: 1 }).waitFor();
    expect(await article.locator('aside.callout-note').textContent()).toBe('note: Tasks need a bearer token (a JSON Web Token); notes do not.');
    await article.getByText('The demo knows 3 users: alice, bob, admin.', { exact: false }).waitFor();
    expect(new URL(page.url()).search).toBe('?tab=docs&page=policies');
    expect(await page.getByRole('link', { name: 'Access policies' }).getAttribute('aria-current')).toBe('page');
    await settled();
    await saveScreenshot(page, 'reference-docs-mdx');

    // A deep link opens the same page.
    await page.goto(`${url}/reference?tab=docs&page=policies`);
    await article.locator('aside.callout-note').waitFor();
    await settled();

    expect(problems).toEqual([]);
  }, BROWSER_TEST_TIMEOUT);

  it('shows the blog API in the APIs tab of the same page', async () => {
    const { page, problems, settled } = await browser.open();

    const url = cli.url.replace('localhost', '127.0.0.1');
    await page.goto(`${url}/reference`);
    await page.getByText('blog.notes.list').first().waitFor();
    await settled();

    expect(await page.getByRole('navigation', { name: 'APIs' }).getByRole('button').allTextContents()).toEqual(['Blog']);
    expect(problems).toEqual([]);
  }, BROWSER_TEST_TIMEOUT);
});
