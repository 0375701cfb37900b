// The dashboard's two HTML pages: the dashboard itself (tiles, charts, tables, filled by assets/dashboard.js
// from the JSON routes) and the sign-in form. Every value written here is escaped; every link is relative,
// so the dashboard also works under a reverse proxy's sub-path.
import { escapeHtml } from '../docs/escape-html';
import { renderHtmlPage } from '../docs/html-page';

/** How often the page asks for the summary (ms); charts and databases less often (assets/dashboard.js). */
export const SUMMARY_REFRESH_MS = 2000;

const TILES: readonly { id: string; label: string; note: string }[] = [
  { id: 'requests-per-second', label: 'Requests/s', note: 'last 60 s' },
  { id: 'error-rate', label: 'Error rate', note: 'status ≥ 400, last 60 s' },
  { id: 'p50', label: 'p50', note: 'latency, last 60 s' },
  { id: 'p95', label: 'p95', note: 'latency, last 60 s' },
  { id: 'p99', label: 'p99', note: 'latency, last 60 s' },
  { id: 'in-flight', label: 'In flight', note: 'requests now' },
];

const CHARTS: readonly { id: string; title: string }[] = [
  { id: 'chart-throughput', title: 'Requests/s and error rate' },
  { id: 'chart-latency', title: 'Latency (ms)' },
  { id: 'chart-memory', title: 'Memory (MB)' },
  { id: 'chart-cpu', title: 'CPU (% of a core) and event-loop delay' },
];

function table(id: string, headings: readonly string[]): string {
  return `<table id="${id}"><thead><tr>${headings.map((heading) => `<th scope="col">${escapeHtml(heading)}</th>`).join('')}</tr></thead><tbody></tbody></table>`;
}

export function renderDashboardPage(title: string, options: { historyDays: number; canSignOut: boolean }): string {
  const heading = `${escapeHtml(title)} <span class="muted">· dashboard</span>`;
  const tiles = TILES.map(
    ({ id, label, note }) =>
      `<div class="tile"><span class="tile-label">${escapeHtml(label)}</span><span class="tile-value" id="${id}">–</span><span class="tile-note">${escapeHtml(note)}</span></div>`,
  ).join('');
  const ranges = [
    ['hour', 'Last hour'],
    ['day', 'Last day'],
    ['history', `Last ${options.historyDays} ${options.historyDays === 1 ? 'day' : 'days'}`],
  ]
    .map(([range, label], index) => `<button type="button" role="tab" data-range="${range}" aria-selected="${index === 0}">${escapeHtml(label)}</button>`)
    .join('');
  const charts = CHARTS.map(({ id, title: chartTitle }) => `<figure class="chart"><figcaption>${escapeHtml(chartTitle)}</figcaption><div id="${id}"></div></figure>`).join('');
  const body =
    `<header class="bar"><h1>${heading}</h1><span id="live-status" class="live">connecting…</span>` +
    (options.canSignOut ? '<a class="sign-out" href="sign-out">Sign out</a>' : '') +
    '</header><main>' +
    `<section class="tiles" aria-label="Summary">${tiles}</section>` +
    `<section class="charts"><div class="chart-controls"><div role="tablist" aria-label="Time range">${ranges}</div>` +
    '<span id="chart-scope">All operations</span> <button type="button" id="chart-all" hidden>Show all operations</button></div>' +
    `<div class="chart-grid">${charts}</div></section>` +
    `<section><h2>Operations <span class="muted" id="operations-since"></span></h2>${table('operations', ['Operation', 'Method', 'Requests', 'Errors', 'Errors by code', 'p50', 'p99', 'Last error'])}</section>` +
    `<section><h2>Databases</h2>${table('databases', ['Database', 'Dialect', 'Health', 'Statements', 'Cache hit rate', 'Hits', 'Misses', 'Evictions'])}</section>` +
    `<section><h2>Processes</h2>${table('processes', ['PID', 'Role', 'RSS', 'Heap used', 'CPU', 'Event loop p99', 'Event loop max', 'In flight', 'Uptime'])}</section>` +
    '<footer id="history-status"></footer></main>';
  return renderHtmlPage({
    title: `${title} · dashboard`,
    stylesheets: ['assets/uPlot.min.css', 'assets/dashboard.css'],
    scripts: ['assets/uPlot.iife.min.js', 'assets/dashboard.js'],
    config: { historyDays: options.historyDays, refreshMs: SUMMARY_REFRESH_MS },
    body,
  });
}

/**
 * The sign-in form: its script sends the token as `Authorization: Bearer` to `session`, which sets the cookie.
 * The field has no `name` and the form no action: without the script, submitting it sends nothing (a named
 * field would put the token in the URL, `GET ?token=…`, and so in histories and proxy logs).
 */
export function renderSignInPage(title: string): string {
  const body =
    '<main class="sign-in"><form id="sign-in" autocomplete="off">' +
    `<h1>${escapeHtml(title)} <span class="muted">· dashboard</span></h1>` +
    '<noscript><p class="error">Signing in here needs JavaScript. Tools send the header <code>Authorization: Bearer &lt;token&gt;</code>.</p></noscript>' +
    '<label for="token">Dashboard token</label>' +
    '<input id="token" type="password" autocomplete="current-password" required autofocus>' +
    '<button type="submit">Sign in</button>' +
    '<p id="sign-in-error" class="error" role="alert" hidden>That token is not valid.</p>' +
    '</form></main>';
  return renderHtmlPage({ title: `${title} · sign in`, stylesheets: ['assets/dashboard.css'], scripts: ['assets/sign-in.js'], config: {}, body });
}

/** Without a token to type (only `authorize`), a refused page says so. */
export function renderRefusedPage(title: string): string {
  const body = `<main class="sign-in"><h1>${escapeHtml(title)} <span class="muted">· dashboard</span></h1><p>You are not allowed to see this dashboard.</p></main>`;
  return renderHtmlPage({ title: `${title} · not allowed`, stylesheets: ['assets/dashboard.css'], scripts: [], config: {}, body });
}
