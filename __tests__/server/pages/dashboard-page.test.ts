// The monitoring dashboard's page in a real headless Chromium with no network but 127.0.0.1: signed out it
// shows the sign-in form; a wrong token is refused; the right one signs in, and the tiles, the operations
// table, the databases and the charts show exactly the requests the test sent. Assets come from this server only.
import { BROWSER_TEST_TIMEOUT, saveScreenshot, useBrowser, type WatchedPage } from '../../helpers/browser';
import { useDashboardTestbed } from '../../helpers/dashboard-testbed';
import type { TestServer } from '../../helpers/test-app';
import { HistoryStore } from '../../../runtime/telemetry/history-store';
import { LatencyHistogram } from '../../../runtime/telemetry/latency-histogram';
import { MinuteAccumulator, type MinuteRecord, type ProcessMinuteRecord } from '../../../runtime/telemetry/minute-record';

const TOKEN = 'page-test-token';

/** Sends a known mix: 5 creates (201), 7 gets (200), 2 gets of missing rows (404 NOT_FOUND), 1 invalid list (400 VALIDATION_ERROR), 3 unknown paths (404). */
async function sendRequests(server: TestServer): Promise<void> {
  const ids: string[] = [];
  for (let index = 0; index < 5; index++) {
    const response = await server.fetch('/api/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: `Note ${index}` }) });
    ids.push(((await response.json()) as { id: string }).id);
  }
  for (let index = 0; index < 7; index++) await (await server.fetch(`/api/notes/${ids[index % ids.length]}`)).text();
  for (let index = 0; index < 2; index++) await (await server.fetch('/api/notes/no-such-note')).text();
  await (await server.fetch('/api/notes/query', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"limit":1000}' })).text();
  for (let index = 0; index < 3; index++) await (await server.fetch(`/nowhere/${index}`)).text();
}

/**
 * Writes the hour before now into a history file, as an earlier run of the server would have left it, so
 * the charts have a shape to show: traffic that rises and falls, a few errors, steady memory.
 */
function seedLastHour(file: string): void {
  const store = new HistoryStore(file, { warn: () => {} });
  const now = Math.floor(Date.now() / 60_000);
  const operations: MinuteRecord[] = [];
  const processes: ProcessMinuteRecord[] = [];
  for (let minute = now - 59; minute < now; minute++) {
    const all = new MinuteAccumulator();
    for (const [operation, share] of [['shop.notes.get', 0.7], ['shop.notes.list', 0.2], ['shop.notes.create', 0.1]] as const) {
      const requests = Math.round((600 + 300 * Math.sin(minute / 6)) * share);
      const errors = Math.round(requests * (operation === 'shop.notes.get' ? 0.03 : 0.01));
      const latency = new LatencyHistogram();
      for (let index = 0; index < requests; index++) latency.record(400 + ((index * 7919) % 2600) * (operation === 'shop.notes.list' ? 3 : 1));
      const record = new MinuteAccumulator();
      record.add({ 200: requests - errors, 404: errors }, errors === 0 ? {} : { NOT_FOUND: errors }, latency.toSparse());
      operations.push(record.toRecord(minute, operation));
      all.addRecord(record.toRecord(minute, operation));
    }
    operations.push(all.toRecord(minute, '*'));
    processes.push({ minute, source: '1', rss: (118 + 6 * Math.sin(minute / 9)) * 2 ** 20, heapUsed: (46 + 4 * Math.sin(minute / 5)) * 2 ** 20, cpuSeconds: 9 + 4 * Math.sin(minute / 6), loopP99: 1.5 + Math.abs(Math.sin(minute / 4)), loopMax: 4 });
  }
  store.append(operations, processes);
  store.close();
}

async function cellText(page: WatchedPage['page'], operation: string, method: string, column: string): Promise<string> {
  return page.locator(`#operations tr[data-operation="${operation}"][data-method="${method}"] td.${column}`).innerText();
}

/** A 401 (the sign-in page itself, a refused token) is logged to the console by Chromium: expected. */
function unexpected(problems: string[]): string[] {
  return problems.filter((problem) => !/status of 401/.test(problem));
}

describe('the dashboard page in a browser', () => {
  const browser = useBrowser();
  const testbed = useDashboardTestbed();

  it('shows the sign-in form when signed out, and refuses a wrong token', async () => {
    const { dashboard } = await testbed.startWithDashboard({ auth: { token: TOKEN } }, { title: 'Shop' });
    const { page, problems, settled } = await browser.open();

    const response = await page.goto(dashboard.url);
    expect(response?.status()).toBe(401);
    await page.locator('form#sign-in').waitFor();
    expect(await page.locator('#operations').count()).toBe(0);
    await settled();
    await saveScreenshot(page, 'dashboard-sign-in');

    await page.fill('#token', 'not-the-token');
    await page.click('button[type="submit"]');
    await page.locator('#sign-in-error').waitFor({ state: 'visible' });
    expect(await page.locator('#sign-in-error').innerText()).toBe('That token is not valid.');
    expect(await page.locator('#operations').count()).toBe(0);
    expect(unexpected(problems)).toEqual([]);
  }, BROWSER_TEST_TIMEOUT);

  it('after signing in, shows the requests the test sent, per operation and in the tiles', async () => {
    const historyFile = testbed.historyFile();
    seedLastHour(historyFile);
    const { server, dashboard } = await testbed.startWithDashboard({ auth: { token: ['another-token', TOKEN] }, historyFile }, { title: 'Shop' });
    await sendRequests(server);
    const { page, problems, requests, settled } = await browser.open();

    await page.goto(dashboard.url);
    await page.fill('#token', TOKEN);
    await page.click('button[type="submit"]');
    await page.locator('#operations tr[data-operation="shop.notes.create"]').waitFor();

    expect(await cellText(page, 'shop.notes.create', 'POST', 'requests')).toBe('5');
    expect(await cellText(page, 'shop.notes.create', 'POST', 'errors')).toBe('0');
    expect(await cellText(page, 'shop.notes.get', 'GET', 'requests')).toBe('9');
    expect(await cellText(page, 'shop.notes.get', 'GET', 'errors')).toBe('2');
    expect(await page.locator('#operations tr[data-operation="shop.notes.get"] .code[data-code="NOT_FOUND"]').innerText()).toBe('NOT_FOUND 2');
    expect(await cellText(page, 'shop.notes.get', 'GET', 'last-error')).toMatch(/^NOT_FOUND at \d\d:\d\d:\d\d$/);
    expect(await cellText(page, 'shop.notes.list', 'POST', 'requests')).toBe('1');
    expect(await page.locator('#operations tr[data-operation="shop.notes.list"] .code[data-code="VALIDATION_ERROR"]').innerText()).toBe('VALIDATION_ERROR 1');
    expect(await cellText(page, 'unmatched', 'GET', 'requests')).toBe('3');
    expect(await page.locator('#operations tbody tr').count()).toBe(4);

    // 18 requests in the last 60 s, 6 of them errors (2 + 1 + 3): 33.3%.
    await page.locator('#error-rate', { hasText: '33.3%' }).waitFor();
    expect(await page.locator('#in-flight').innerText()).toBe('0');
    expect(await page.locator('#p50').innerText()).toMatch(/ m?s$/);
    // The database of the test service answers; its notes have an application default, so nothing is cached (spec §8 rule 3).
    await page.locator('#databases tr[data-database="shop"] td.health', { hasText: 'ok' }).waitFor();
    expect(await page.locator('#databases tr[data-database="shop"] td.statements').innerText()).toMatch(/^\d+ \/ 128$/);
    expect(await page.locator('#processes tbody tr').count()).toBe(1);
    // The charts are drawn (uPlot canvases), for the last hour by default, then for the last day.
    expect(await page.locator('.chart canvas').count()).toBe(4);
    await page.click('[data-range="day"]');
    await page.locator('[data-range="day"][aria-selected="true"]').waitFor();
    await page.click('[data-range="hour"]');
    await settled();
    await saveScreenshot(page, 'dashboard', { fullPage: true });

    expect(requests.every((request) => request.includes(dashboard.url))).toBe(true);
    expect(requests).toEqual(expect.arrayContaining([`GET ${dashboard.url}/assets/uPlot.iife.min.js`, `GET ${dashboard.url}/api/summary`, `GET ${dashboard.url}/api/series?range=day`]));
    // The sign-in page itself is answered 401, which Chromium logs; nothing else may go wrong.
    expect(unexpected(problems)).toEqual([]);
    expect(problems.length).toBeLessThanOrEqual(1);
  }, BROWSER_TEST_TIMEOUT);

  it('narrows the charts to an operation chosen in the table', async () => {
    const { server, dashboard } = await testbed.startWithDashboard({ auth: { token: TOKEN } });
    await sendRequests(server);
    const { page, problems } = await browser.open();
    await page.setExtraHTTPHeaders({ authorization: `Bearer ${TOKEN}` });

    await page.goto(dashboard.url);
    const asked = page.waitForRequest((request) => request.url().endsWith('/api/series?range=hour&operation=shop.notes.get'));
    await page.locator('#operations tr[data-operation="shop.notes.get"]').click();
    await asked;
    expect(await page.locator('#chart-scope').innerText()).toBe('Operation shop.notes.get');
    await page.click('#chart-all');
    expect(await page.locator('#chart-scope').innerText()).toBe('All operations');
    expect(problems).toEqual([]);
  }, BROWSER_TEST_TIMEOUT);
});
