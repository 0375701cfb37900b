// A real headless Chromium (Debian's /usr/bin/chromium driven by playwright-core) that cannot leave the
// machine: every host name resolves to nothing but 127.0.0.1. Pages are watched for what a user would
// see go wrong: failed requests, requests to other hosts, console errors and uncaught exceptions.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const SCREENSHOTS_DIR = path.resolve(__dirname, '../../docs/screenshots');
/** Browser tests wait on real rendering: generous, per test. */
export const BROWSER_TEST_TIMEOUT = 120_000;

/**
 * `loopbackNames` resolve to 127.0.0.1 too (a DNS-rebinding test's attacker name); every other name to nothing.
 */
function launchBrowser(loopbackNames: readonly string[]): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`${CHROMIUM_PATH} is missing: apt-get install chromium (bash .ci/run does it)`);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // The network is unreachable for the page: only 127.0.0.1 resolves.
      `--host-resolver-rules=${[...loopbackNames.map((name) => `MAP ${name} 127.0.0.1`), 'MAP * ~NOTFOUND', 'EXCLUDE 127.0.0.1'].join(', ')}`,
    ],
  });
}

export interface WatchedPage {
  page: Page;
  /** Everything that went wrong so far, one line each; a healthy page leaves it empty. */
  problems: string[];
  /** Every http(s) request the page made, as `METHOD url`. */
  requests: string[];
  /** Resolves once no request has been in flight for half a second (Playwright's `networkidle` is unreliable here). */
  settled(): Promise<void>;
}

const SETTLE_MS = 500;
const SETTLE_TIMEOUT_MS = 30_000;

export interface BrowserTestbed {
  /** A fresh page in its own context (no shared cache or storage), closed after the test; `javaScriptEnabled: false` for a page without scripts. */
  open(options?: { javaScriptEnabled?: boolean }): Promise<WatchedPage>;
}

/**
 * Launches one browser for the describe block and closes each test's pages after it. Call it before
 * useServerTestbed, so pages close (and drop their connections) before the servers do.
 */
export function useBrowser(options: { loopbackNames?: readonly string[] } = {}): BrowserTestbed {
  let browser: Browser | undefined;
  const contexts: BrowserContext[] = [];
  const local = ['127.0.0.1', ...(options.loopbackNames ?? [])];
  beforeAll(async () => {
    browser = await launchBrowser(options.loopbackNames ?? []);
  }, BROWSER_TEST_TIMEOUT);
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return {
    async open({ javaScriptEnabled = true } = {}) {
      if (browser === undefined) throw new Error('the browser did not start');
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, javaScriptEnabled });
      contexts.push(context);
      return watch(await context.newPage(), local);
    },
  };
}

/** Collects the page's failures in `problems`; a request to a host not in `local` is one. */
function watch(page: Page, local: readonly string[]): WatchedPage {
  let inFlight = 0;
  let lastChange = Date.now();
  const watched: WatchedPage = {
    page,
    problems: [],
    requests: [],
    async settled() {
      const deadline = Date.now() + SETTLE_TIMEOUT_MS;
      while (inFlight > 0 || Date.now() - lastChange < SETTLE_MS) {
        if (Date.now() > deadline) throw new Error(`the page still has ${inFlight} request(s) in flight after ${SETTLE_TIMEOUT_MS} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
  };
  const done = () => {
    inFlight -= 1;
    lastChange = Date.now();
  };
  page.on('requestfinished', done);
  page.on('request', (request) => {
    inFlight += 1;
    lastChange = Date.now();
    const url = new URL(request.url());
    if (url.protocol === 'data:' || url.protocol === 'blob:') return;
    watched.requests.push(`${request.method()} ${request.url()}`);
    if (!local.includes(url.hostname)) watched.problems.push(`request left 127.0.0.1: ${request.method()} ${request.url()}`);
  });
  page.on('requestfailed', (request) => {
    done();
    watched.problems.push(`request failed: ${request.method()} ${request.url()} (${request.failure()?.errorText ?? 'unknown'})`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') watched.problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => watched.problems.push(`uncaught exception: ${error.message}`));
  return watched;
}

/** Writes docs/screenshots/<name>.png, only under TESSERA_UPDATE_SCREENSHOTS=1 (`npm run screenshots`). */
export async function saveScreenshot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  if (process.env.TESSERA_UPDATE_SCREENSHOTS !== '1') return;
  fs.mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS_DIR, `${name}.png`), fullPage: options.fullPage ?? false });
}
