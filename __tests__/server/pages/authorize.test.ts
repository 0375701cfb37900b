// The `security` option as a user meets it: the blog example started with `tessera start`, its /swagger
// page in a real headless Chromium, "Authorize" with a demo bearer token, then a tasks route tried out:
// Swagger UI sends the token and the server answers 200 with that caller's rows. /docs (Scalar) offers
// the same scheme in its Authentication panel.
import { BROWSER_TEST_TIMEOUT, saveScreenshot, useBrowser } from '../../helpers/browser';
import { freePort } from '../../helpers/free-port';
import { request } from '../../helpers/request';
import { startCli, type RunningCli } from '../../helpers/spawn-cli';
import { demoToken } from '../../../fixtures/blog/demo-token';

describe('authorizing in the docs pages with the blog example', () => {
  const browser = useBrowser();
  let cli: RunningCli;
  /** The browser reaches 127.0.0.1 only (helpers/browser.ts): the CLI's `localhost` URL, by address. */
  let url: string;
  /** Alice's token, as `npm run -s blog:token alice` prints it. */
  let aliceToken: string;

  beforeAll(async () => {
    aliceToken = await demoToken('alice');
    cli = await startCli(['start', 'fixtures/blog/app.ts', '--port', String(await freePort())], { BLOG_DATABASE: undefined });
    url = cli.url.replace('//localhost:', '//127.0.0.1:');
    const created = await request(`${url}/api/tasks`, { method: 'POST', headers: { authorization: `Bearer ${aliceToken}` }, body: { title: 'Alice, via Swagger' } });
    expect(created.status).toBe(201);
  }, BROWSER_TEST_TIMEOUT);
  afterAll(async () => {
    await cli?.stop();
  });

  it('offers Authorize, sends the bearer token with blog.tasks.list and shows the 200 answer', async () => {
    const { page, problems, settled } = await browser.open();
    await page.goto(`${url}/swagger`);

    await page.locator('.btn.authorize').first().click();
    const dialog = page.locator('.modal-ux');
    await dialog.getByText('bearer (http, Bearer)').waitFor();
    await dialog.locator('input').first().fill(aliceToken);
    await dialog.getByRole('button', { name: 'Apply credentials' }).click();
    await dialog.getByRole('button', { name: 'Remove authorization' }).waitFor(); // Swagger UI now holds the token
    await dialog.locator('button.btn-done').click();

    const operation = page.locator('.opblock', { has: page.locator('.opblock-summary-description', { hasText: /^blog\.tasks\.list$/ }) });
    await operation.locator('.opblock-summary').click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
    await operation.locator('textarea.body-param__text').fill('{}');
    const answered = page.waitForResponse((response) => response.url() === `${url}/api/tasks/query` && response.request().method() === 'POST');
    await operation.getByRole('button', { name: 'Execute' }).click();
    const response = await answered;
    expect(response.request().headers().authorization).toBe(`Bearer ${aliceToken}`);
    expect(response.status()).toBe(200);

    const body = operation.locator('.live-responses-table .response-col_description pre').first();
    await body.getByText('Alice, via Swagger').waitFor();
    expect(JSON.parse(await body.innerText())).toEqual({ items: [expect.objectContaining({ title: 'Alice, via Swagger', ownerId: 'alice' })] });
    await settled();
    await saveScreenshot(page, 'swagger-authorized');
    expect(problems).toEqual([]);
  }, BROWSER_TEST_TIMEOUT);

  it('offers the bearer scheme in the Authentication panel of /docs (Scalar)', async () => {
    const { page, problems, settled } = await browser.open();
    await page.goto(`${url}/docs`);
    await page.getByText('Authentication', { exact: true }).first().waitFor();
    await page.getByText('Select Auth Type').first().click();
    await page.getByText('bearer', { exact: true }).first().waitFor();
    await settled();
    expect(problems).toEqual([]);
  }, BROWSER_TEST_TIMEOUT);

  it('documents the tasks routes as needing the bearer token and the public notes routes as open', async () => {
    const document = (await request(`${url}/openapi.json`)).body;
    expect(document.components.securitySchemes).toEqual({ bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }) });
    expect(document.paths['/api/tasks/query'].post.security).toEqual([{ bearer: [] }]);
    // Open on purpose, and saying so: an empty requirement.
    expect(document.paths['/api/notes/query'].post.security).toEqual([{}]);
  });
});
