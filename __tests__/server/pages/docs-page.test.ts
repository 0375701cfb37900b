// The /docs page (Scalar) in a real headless Chromium with no network but 127.0.0.1: it renders the
// server's OpenAPI document, loads nothing from elsewhere, and its test-request client reaches the server.
import { BROWSER_TEST_TIMEOUT, saveScreenshot, useBrowser } from '../../helpers/browser';
import { useServerTestbed } from '../../helpers/server-testbed';

describe('the docs page (Scalar) in a browser', () => {
  const browser = useBrowser();
  const testbed = useServerTestbed();

  it('renders every resource and its operations, with assets from this server only', async () => {
    const server = await testbed.start({ title: 'Shop' });
    const { page, problems, requests, settled } = await browser.open();

    await page.goto(`${server.url}/docs`);
    for (const tag of ['shop.notes', 'shop.items', 'shop.categories', 'shop.readings']) {
      await page.getByRole('button', { name: new RegExp(`^(Open|Close) Group - ${tag.replace('.', '\\.')}$`) }).waitFor();
    }
    // The first group starts open; open the notes group as a reader would.
    await page.getByRole('button', { name: 'Open Group - shop.notes' }).click();
    for (const action of ['list', 'get', 'findOne', 'create', 'update', 'delete', 'count', 'exists']) {
      await page.getByText(`shop.notes.${action}`).first().waitFor();
    }
    await settled();

    expect(await page.title()).toBe('Shop');
    expect(requests).toEqual(expect.arrayContaining([`GET ${server.url}/docs/scalar.js`, `GET ${server.url}/openapi.json`]));
    expect(problems).toEqual([]);
  }, BROWSER_TEST_TIMEOUT);

  it("sends a test request from Scalar's client to the running server and shows the stored rows", async () => {
    await testbed.service.notes.create({ input: { title: 'Seeded for Scalar', content: 'stored in SQLite' } });
    const server = await testbed.start({ title: 'Shop' });
    const { page, problems, settled } = await browser.open();

    await page.goto(`${server.url}/docs`);
    await page.getByRole('button', { name: 'Open Group - shop.notes' }).click();
    await page.getByText('shop.notes.list').first().click();
    await page.waitForURL(/#tag\/shopnotes\/POST\/api\/notes\/query$/);
    await settled();
    await saveScreenshot(page, 'docs');

    await page.getByRole('button', { name: /Test Request.*post \/api\/notes\/query/i }).click();
    const answered = page.waitForResponse((response) => response.url() === `${server.url}/api/notes/query` && response.request().method() === 'POST');
    await page.getByRole('button', { name: /^Send/ }).first().click();
    const response = await answered;
    expect(response.status()).toBe(200);
    expect(await response.json()).toEqual({ items: [expect.objectContaining({ title: 'Seeded for Scalar', content: 'stored in SQLite' })] });
    // The client shows the answer's body.
    await page.getByText('"Seeded for Scalar"').first().waitFor();
    await saveScreenshot(page, 'docs-try-it');

    expect(problems).toEqual([]);
  }, BROWSER_TEST_TIMEOUT);

  it('sits at docsPath, outside the prefix, under the title option', async () => {
    const server = await testbed.start({ title: 'Custom <Shop>', prefix: '/v2', docsPath: '/api-docs' });
    const { page, problems, settled } = await browser.open();

    await page.goto(`${server.url}/api-docs`);
    await page.getByText('shop.categories.list').first().waitFor();
    await settled();

    expect(await page.title()).toBe('Custom <Shop>');
    expect(problems).toEqual([]);
  }, BROWSER_TEST_TIMEOUT);
});
