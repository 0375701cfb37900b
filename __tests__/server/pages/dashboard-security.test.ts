// The dashboard page's defences in a real headless Chromium (issue 32, finding 6): the sign-in form without
// JavaScript sends no token into the URL; "Sign out" ends the session for a copy of its cookie too; and a page
// reached under a rebound name (attacker.example resolving to 127.0.0.1) gets no dashboard without auth.
import { BROWSER_TEST_TIMEOUT, useBrowser } from '../../helpers/browser';
import { fetchDashboard, useDashboardTestbed } from '../../helpers/dashboard-testbed';

const TOKEN = 'browser-session-token-9d2';
const REBOUND = 'attacker.example';

/** A 401 or 403 the test provokes on purpose is logged to the console by Chromium: expected. */
function unexpected(problems: string[]): string[] {
  return problems.filter((problem) => !/status of 40[13]/.test(problem));
}

describe('the dashboard page defends its sessions in a browser', () => {
  const browser = useBrowser({ loopbackNames: [REBOUND] });
  const testbed = useDashboardTestbed();

  it('sends no token into the URL when the sign-in form is submitted without JavaScript', async () => {
    const { dashboard } = await testbed.startWithDashboard({ auth: { token: TOKEN } });
    const { page, requests } = await browser.open({ javaScriptEnabled: false });
    await page.goto(dashboard.url);
    expect(await page.locator('noscript').count()).toBe(1);
    await page.fill('#token', TOKEN);
    await page.press('#token', 'Enter');
    await page.waitForLoadState('load');
    expect(page.url()).not.toContain(TOKEN);
    for (const request of requests) expect(request).not.toContain(TOKEN);
    expect(await page.locator('form#sign-in').count()).toBe(1); // still signed out
  }, BROWSER_TEST_TIMEOUT);

  it('signs out for good: a copy of the session cookie taken before "Sign out" is refused after it', async () => {
    const { dashboard } = await testbed.startWithDashboard({ auth: { token: TOKEN } });
    const { page, problems, settled } = await browser.open();
    await page.goto(dashboard.url);
    await page.fill('#token', TOKEN);
    await page.click('button[type="submit"]');
    await page.locator('#operations').waitFor();
    const [session] = await page.context().cookies(dashboard.url);
    const copied = `${session.name}=${session.value}`;
    expect((await fetchDashboard(dashboard, '/api/summary', undefined, { headers: { cookie: copied } })).status).toBe(200);

    // The dashboard's first loads answered: leaving the page would cancel one still on its way (a failed request).
    await settled();
    await page.click('a.sign-out');
    await page.locator('form#sign-in').waitFor();
    expect(await page.context().cookies(dashboard.url)).toEqual([]);
    expect((await fetchDashboard(dashboard, '/api/summary', undefined, { headers: { cookie: copied } })).status).toBe(401);
    expect(unexpected(problems)).toEqual([]);
  }, BROWSER_TEST_TIMEOUT);

  it('shows nothing to a page that reaches a dashboard without auth under a rebound name', async () => {
    const { dashboard } = await testbed.startWithDashboard();
    const port = new URL(dashboard.url).port;
    const { page, problems } = await browser.open();

    const rebound = await page.goto(`http://${REBOUND}:${port}/`);
    expect(rebound?.status()).toBe(403);
    expect(await page.locator('#operations').count()).toBe(0);
    // What the attacker's script would read: a refusal, no figures.
    const read = await page.evaluate(async () => {
      const answer = await fetch('api/summary');
      return { status: answer.status, body: await answer.text() };
    });
    expect(read).toEqual({ status: 403, body: expect.stringContaining('FORBIDDEN') });

    const local = await page.goto(`http://127.0.0.1:${port}/`);
    expect(local?.status()).toBe(200);
    await page.locator('#operations').waitFor();
    expect(unexpected(problems)).toEqual([]);
  }, BROWSER_TEST_TIMEOUT);
});
