// The /swagger page (Swagger UI) in a real headless Chromium with no network but 127.0.0.1: it renders the
// server's OpenAPI document from installed assets, and "Try it out" → "Execute" answers with real rows.
import { BROWSER_TEST_TIMEOUT, saveScreenshot, useBrowser } from '../../helpers/browser';
import { useServerTestbed } from '../../helpers/server-testbed';

describe('the swagger page (Swagger UI) in a browser', () => {
  const browser = useBrowser();
  const testbed = useServerTestbed();

  it('renders every resource and operation, with assets from this server only', async () => {
    const server = await testbed.start({ title: 'Shop' });
    const { page, problems, requests, settled } = await browser.open();

    await page.goto(`${server.url}/swagger`);
    await page.locator('.opblock').first().waitFor();
    for (const tag of ['shop.notes', 'shop.items', 'shop.categories', 'shop.readings']) {
      await page.locator(`.opblock-tag[data-tag="${tag}"]`).waitFor();
    }
    const summaries = await page.locator('.opblock-tag-section', { has: page.locator('.opblock-tag[data-tag="shop.notes"]') }).locator('.opblock-summary-description').allTextContents();
    expect(summaries).toEqual(expect.arrayContaining(['shop.notes.list', 'shop.notes.get', 'shop.notes.findOne', 'shop.notes.create', 'shop.notes.update', 'shop.notes.delete', 'shop.notes.count', 'shop.notes.exists']));
    await settled();

    await saveScreenshot(page, 'swagger');

    expect(await page.title()).toBe('Shop');
    // `/swagger` sends the browser to `/swagger/`, where the page's relative asset links resolve.
    expect(page.url()).toBe(`${server.url}/swagger/`);
    expect(requests).toEqual(expect.arrayContaining([`GET ${server.url}/swagger/swagger-ui-bundle.js`, `GET ${server.url}/openapi.json`]));
    expect(problems).toEqual([]);
  }, BROWSER_TEST_TIMEOUT);

  it('tries shop.notes.list out against the running server and shows the stored rows', async () => {
    await testbed.service.notes.create({ input: { title: 'Seeded for Swagger', content: 'stored in SQLite' } });
    const server = await testbed.start({ title: 'Shop' });
    const { page, problems, settled } = await browser.open();

    await page.goto(`${server.url}/swagger`);
    const operation = page.locator('.opblock', { has: page.locator('.opblock-summary-description', { hasText: /^shop\.notes\.list$/ }) });
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.locator('textarea.body-param__text').fill('{ "limit": 5 }');
    const answered = page.waitForResponse((response) => response.url() === `${server.url}/api/notes/query` && response.request().method() === 'POST');
    await operation.getByRole('button', { name: 'Execute' }).click();
    expect((await answered).status()).toBe(200);

    const body = operation.locator('.live-responses-table .response-col_description pre').first();
    await body.getByText('Seeded for Swagger').waitFor();
    expect(JSON.parse(await body.innerText())).toEqual({ items: [expect.objectContaining({ title: 'Seeded for Swagger', content: 'stored in SQLite' })] });
    await settled();
    await body.evaluate((element) => element.scrollIntoView({ block: 'center' }));
    await saveScreenshot(page, 'swagger-try-it');

    expect(problems).toEqual([]);
  }, BROWSER_TEST_TIMEOUT);

  it('sits at swaggerPath, outside the prefix, under the title option', async () => {
    const server = await testbed.start({ title: 'Custom <Shop>', prefix: '/v2', swaggerPath: '/explorer' });
    const { page, problems, settled } = await browser.open();

    await page.goto(`${server.url}/explorer`);
    await page.locator('.opblock-summary-path[data-path="/v2/notes/query"]').waitFor();
    await settled();

    expect(await page.title()).toBe('Custom <Shop>');
    expect(problems).toEqual([]);
  }, BROWSER_TEST_TIMEOUT);
});
