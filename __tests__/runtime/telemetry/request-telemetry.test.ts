// What createServer records when `dashboard` is set, read back from the dashboard's GET /metrics (parsed as
// Prometheus text) and GET api/summary, in the three handler modes: every request counted once under its
// operation (operationId, or unmatched), method, status and error code, with its latency; requests in flight
// and clients that leave; and nothing recorded, nor any layer added, without `dashboard`.
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { createServer, defineService } from 'tessera-api';
import { BuiltBundle } from '../../helpers/bundle-loader';
import { REPO_ROOT } from '../../helpers/bundles';
import { dashboardJson, fetchDashboard, useDashboardTestbed } from '../../helpers/dashboard-testbed';
import { parsePrometheusText, type Exposition } from '../../helpers/prometheus-text';
import { HANDLER_MODES, type TestServer } from '../../helpers/test-app';
import { telemetryOf } from '../../../runtime/telemetry/app-telemetry';

const JSON_HEADERS = { 'content-type': 'application/json' };

/** Sends the mix below and answers what each (operation, method, status) should count. */
async function sendMix(server: TestServer): Promise<Record<string, number>> {
  const ids: string[] = [];
  for (let index = 0; index < 3; index++) {
    const created = await server.fetch('/api/notes', { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ title: `n${index}` }) });
    ids.push(((await created.json()) as { id: string }).id);
  }
  for (let index = 0; index < 4; index++) await (await server.fetch(`/api/notes/${ids[index % 3]}`)).text();
  for (let index = 0; index < 2; index++) await (await server.fetch('/api/notes/missing')).text();
  await (await server.fetch(`/api/notes/${ids[0]}`, { method: 'HEAD' })).text();
  await (await server.fetch('/api/notes/query', { method: 'POST', headers: JSON_HEADERS, body: '{bad' })).text();
  await (await server.fetch('/api/notes/query', { method: 'POST', headers: JSON_HEADERS, body: '{"limit":1000}' })).text();
  await (await server.fetch('/api/items/query', { method: 'POST', headers: JSON_HEADERS, body: '{}' })).text();
  await (await server.fetch('/api/shop/ping', { method: 'POST', headers: JSON_HEADERS, body: '{}' })).text();
  for (let index = 0; index < 2; index++) await (await server.fetch('/nowhere')).text();
  await (await server.fetch('/_health')).text();
  await (await server.fetch('/nowhere', { method: 'DELETE' })).text();
  // Wrong methods on fixed paths: no route, not the get, update or delete of an id "count" or "query".
  await (await server.fetch('/api/notes/count')).text();
  await (await server.fetch('/api/notes/query', { method: 'DELETE' })).text();
  return {
    'shop.notes.create POST 201': 3,
    'shop.notes.get GET 200': 4,
    'shop.notes.get GET 404': 2,
    'shop.notes.get HEAD 200': 1,
    'shop.notes.list POST 400': 2,
    'shop.items.list POST 403': 1,
    'shop.ping POST 200': 1,
    'unmatched GET 404': 3,
    'unmatched GET 200': 1,
    'unmatched DELETE 404': 2,
  };
}

async function scrape(dashboard: { url: string }): Promise<Exposition> {
  const response = await fetch(`${dashboard.url}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
  return parsePrometheusText(await response.text());
}

describe('request telemetry, read back from /metrics and api/summary', () => {
  const testbed = useDashboardTestbed();
  const bundle = new BuiltBundle();
  afterAll(() => bundle.remove());

  describe.each(HANDLER_MODES)('%s handlers', (mode) => {
    it('counts every request once, by operation, method and status, with its error code and latency', async () => {
      const { server, dashboard } = await testbed.startWithDashboard({}, {}, { mode, bundle });
      const expected = await sendMix(server);
      const metrics = await scrape(dashboard);

      const counted: Record<string, number> = {};
      for (const sample of metrics.find('tessera_http_requests_total')) counted[`${sample.labels.operation} ${sample.labels.method} ${sample.labels.status}`] = sample.value;
      expect(counted).toEqual(expected);
      expect(metrics.types.get('tessera_http_requests_total')).toBe('counter');

      const codes: Record<string, number> = {};
      for (const sample of metrics.find('tessera_http_request_errors_total')) codes[`${sample.labels.operation} ${sample.labels.method} ${sample.labels.code}`] = sample.value;
      expect(codes).toEqual({
        'shop.notes.get GET NOT_FOUND': 2,
        'shop.notes.list POST BAD_REQUEST': 1,
        'shop.notes.list POST VALIDATION_ERROR': 1,
        'shop.items.list POST FORBIDDEN': 1,
        'unmatched GET NOT_FOUND': 3,
        'unmatched DELETE NOT_FOUND': 2,
      });

      // The histogram: one series per operation and method, counting the same requests, buckets cumulative.
      expect(metrics.types.get('tessera_http_request_duration_seconds')).toBe('histogram');
      const perSeries: Record<string, number> = {};
      for (const [key, count] of Object.entries(expected)) {
        const series = key.split(' ').slice(0, 2).join(' ');
        perSeries[series] = (perSeries[series] ?? 0) + count;
      }
      for (const [series, count] of Object.entries(perSeries)) {
        const [operation, method] = series.split(' ');
        expect(metrics.value('tessera_http_request_duration_seconds_count', { operation, method })).toBe(count);
        const buckets = metrics.find('tessera_http_request_duration_seconds_bucket', { operation, method });
        expect(buckets.map((bucket) => bucket.labels.le).at(-1)).toBe('+Inf');
        expect(buckets.at(-1)!.value).toBe(count);
        buckets.forEach((bucket, index) => index > 0 && expect(bucket.value).toBeGreaterThanOrEqual(buckets[index - 1].value));
        expect(metrics.value('tessera_http_request_duration_seconds_sum', { operation, method })).toBeGreaterThan(0);
      }
      expect(metrics.value('tessera_http_requests_in_flight')).toBe(0);

      // The page's summary counts the same.
      const summary = await dashboardJson(dashboard, '/api/summary');
      const fromSummary: Record<string, number> = {};
      for (const operation of summary.operations) for (const [status, count] of Object.entries(operation.statuses)) fromSummary[`${operation.operation} ${operation.method} ${status}`] = count as number;
      expect(fromSummary).toEqual(expected);
      expect(summary.window.requests).toBe(Object.values(expected).reduce((sum, count) => sum + count, 0));
      const get = summary.operations.find((operation: any) => operation.operation === 'shop.notes.get' && operation.method === 'GET');
      expect(get).toMatchObject({ requests: 6, errors: 2, codes: { NOT_FOUND: 2 }, lastError: { code: 'NOT_FOUND' } });
      expect(get.p50).toBeGreaterThan(0);
      expect(get.p99).toBeGreaterThanOrEqual(get.p50);
    });
  });

  it('exposes the statement cache, the database check and the process figures', async () => {
    const { server, dashboard } = await testbed.startWithDashboard();
    await (await server.fetch('/api/readings/query', { method: 'POST', headers: JSON_HEADERS, body: '{}' })).text();
    const metrics = await scrape(dashboard);
    for (const name of ['tessera_statement_cache_statements', 'tessera_statement_cache_capacity', 'tessera_statement_cache_hits_total', 'tessera_statement_cache_misses_total', 'tessera_statement_cache_evictions_total']) {
      expect(metrics.find(name, { database: 'shop' })).toHaveLength(1);
    }
    expect(metrics.value('tessera_statement_cache_capacity', { database: 'shop' })).toBe(128);
    expect(metrics.value('tessera_database_up', { database: 'shop', dialect: 'sqlite' })).toBe(1);
    // prom-client's default process metrics follow Tessera's.
    expect(metrics.value('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(metrics.types.get('process_cpu_seconds_total')).toBe('counter');
    expect(metrics.find('nodejs_eventloop_lag_p99_seconds')).toHaveLength(1);
  });

  it('counts a request in flight until it is answered, and a client that leaves first as 499', async () => {
    let release: () => void = () => {};
    const latch = new Promise<void>((resolve) => (release = resolve));
    defineService({ name: 'slow', db: testbed.database.db }).action('wait', { handler: async () => (await latch, { done: true }) });
    const { server, dashboard } = await testbed.startWithDashboard();

    const pending = server.fetch('/api/slow/wait', { method: 'POST', headers: JSON_HEADERS, body: '{}' });
    const leaving = new AbortController();
    const abandoned = server.fetch('/api/slow/wait', { method: 'POST', headers: JSON_HEADERS, body: '{}', signal: leaving.signal }).catch(() => 'aborted');
    try {
      await waitFor(async () => (await scrape(dashboard)).value('tessera_http_requests_in_flight') === 2);
      leaving.abort();
      expect(await abandoned).toBe('aborted');
      await waitFor(async () => (await scrape(dashboard)).value('tessera_http_requests_in_flight') === 1);
    } finally {
      release();
    }
    expect((await pending).status).toBe(200);
    await waitFor(async () => (await scrape(dashboard)).value('tessera_http_requests_in_flight') === 0);

    const metrics = await scrape(dashboard);
    expect(metrics.value('tessera_http_requests_total', { operation: 'slow.wait', status: '200' })).toBe(1);
    expect(metrics.value('tessera_http_requests_total', { operation: 'slow.wait', status: '499' })).toBe(1);
    expect(metrics.value('tessera_http_request_errors_total', { operation: 'slow.wait', code: 'HTTP_499' })).toBe(1);
  });

  it('records nothing and adds no layer without the dashboard option', async () => {
    const app = createServer({ requestLogging: false });
    expect(telemetryOf(app)).toBeUndefined();
    const layerNames = (app.router as unknown as { stack: { name: string }[] }).stack.map((layer) => layer.name);
    expect(layerNames).not.toContain('startTelemetry');

    // The action routes' chains start with the operation's tag: the counts by operation above come from it.
    const withDashboard = createServer({ requestLogging: false, dashboard: {} });
    expect(telemetryOf(withDashboard)).toBeDefined();
    expect((withDashboard.router as unknown as { stack: { name: string }[] }).stack.map((layer) => layer.name)).toContain('startTelemetry');
  });

  it('loads no telemetry or dashboard module without the dashboard option, and loads them with it (the installed package)', () => {
    // A process of its own: what `require('tessera-api')` and createServer load, as a user's process loads them.
    const loaded = (dashboard: boolean): string[] => {
      const script = `const t = require(${JSON.stringify(path.join(REPO_ROOT, 'lib/runtime/index.js'))});
t.createServer({ requestLogging: false, services: [], ${dashboard ? 'dashboard: {},' : ''} });
process.stdout.write(JSON.stringify(Object.keys(require.cache).filter((file) => /[\\\\/]runtime[\\\\/](telemetry|dashboard)[\\\\/]/.test(file))));`;
      return JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' })) as string[];
    };
    expect(loaded(false)).toEqual([]);
    expect(loaded(true)).toEqual(expect.arrayContaining([expect.stringMatching(/telemetry[\\/]app-telemetry\.js$/), expect.stringMatching(/dashboard[\\/]dashboard-options\.js$/)]));
  });

  it('answers the dashboard routes 401 without a credential, /metrics included', async () => {
    const { dashboard } = await testbed.startWithDashboard({ auth: { token: 'metrics-token' } });
    expect((await fetchDashboard(dashboard, '/metrics')).status).toBe(401);
    const metrics = parsePrometheusText(await (await fetchDashboard(dashboard, '/metrics', 'metrics-token')).text());
    expect(metrics.value('tessera_http_requests_in_flight')).toBe(0);
  });
});

/** Polls `condition` (a real server answering on its own schedule) for up to 10 s. */
async function waitFor(condition: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error('the condition did not hold within 10 s');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
