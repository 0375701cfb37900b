// The `cors` option as a browser app meets it: a page served from another origin (another port) calls the API
// with fetch in a real headless Chromium. From the allowed origin the preflighted JSON call succeeds and the page
// can read the exposed X-Request-Id; from any other origin Chromium refuses it, and the call never runs.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { BROWSER_TEST_TIMEOUT, useBrowser } from '../../helpers/browser';
import { useServerTestbed } from '../../helpers/server-testbed';
import type { RunningServer } from '../../helpers/test-app';

const PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><title>Notes app</title></head>
<body><p id="result">not called yet</p>
<script>
  // What a browser app on its own origin does: a JSON call (so the browser sends a preflight first).
  window.createNote = async (api, title) => {
    const response = await fetch(api + '/api/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title }) });
    const body = await response.json();
    document.getElementById('result').textContent = response.status + ' ' + body.title;
    return { status: response.status, body, requestId: response.headers.get('x-request-id') };
  };
</script></body></html>`;

/** A static site on its own port: the browser app's origin. */
async function startSite(): Promise<RunningServer> {
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('a browser app on another origin calling the API', () => {
  const browser = useBrowser();
  const testbed = useServerTestbed();
  const sites: RunningServer[] = [];
  afterEach(async () => {
    for (const site of sites.splice(0)) await site.close();
  });

  /** The API's request log: Chromium's preflights do not show among the page's requests, but reach the server. */
  const logged: string[] = [];
  async function setUp(): Promise<{ api: string; allowed: string; other: string }> {
    const allowed = await startSite();
    const other = await startSite();
    sites.push(allowed, other);
    logged.length = 0;
    const api = await testbed.start({ cors: { origin: allowed.url }, requestLogging: { logger: (line) => void logged.push(line.replace(/ \(.*$/, '')) } });
    return { api: api.url, allowed: allowed.url, other: other.url };
  }

  it('succeeds from the allowed origin: preflight, then the call, whose X-Request-Id the page can read', async () => {
    const { api, allowed } = await setUp();
    const { page, problems } = await browser.open();
    await page.goto(allowed);
    const answer = await page.evaluate(([url]) => (globalThis as any).createNote(url, 'From the browser'), [api]);
    expect(answer).toEqual({ status: 201, body: expect.objectContaining({ title: 'From the browser' }), requestId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    await page.getByText('201 From the browser').waitFor();
    expect(logged).toEqual(['OPTIONS /api/notes → 204', 'POST /api/notes → 201']);
    expect(problems).toEqual([]);
    expect(await testbed.database.raw('SELECT title FROM t_notes')).toEqual([{ title: 'From the browser' }]);
  }, BROWSER_TEST_TIMEOUT);

  it('is refused from another origin: the browser blocks the call after the preflight, and nothing is written', async () => {
    const { api, other } = await setUp();
    const { page, problems } = await browser.open();
    await page.goto(other);
    const failure = await page.evaluate(([url]) => (globalThis as any).createNote(url, 'From elsewhere').then(() => 'answered', (error: Error) => `${error.name}: ${error.message}`), [api]);
    expect(failure).toBe('TypeError: Failed to fetch');
    expect(problems).toEqual(expect.arrayContaining([expect.stringMatching(/blocked by CORS policy/)]));
    expect(logged).toEqual(['OPTIONS /api/notes → 204']); // the preflight only: the POST was never sent
    expect(await testbed.database.raw('SELECT title FROM t_notes')).toEqual([]);
  }, BROWSER_TEST_TIMEOUT);
});
