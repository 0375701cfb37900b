// docs/dashboard.md's Prometheus recipe, run: two bundle replicas serve their dashboards, Prometheus (the config
// read from the page, scraping every 200 ms) scrapes both, and across them
// sum(increase(tessera_http_requests_total[…])) finds the requests sent, within 5%. Prints the figures.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { POSTGRES_URL, temporaryFolder } from '../helpers/bundles';
import { docsConfig, withReplacements } from '../helpers/docs-config';
import { freePort } from '../helpers/free-port';
import { startPrometheus, type Prometheus } from '../helpers/prometheus';
import { Replica } from '../helpers/replica';
import { buildScaleApp, recreateItems } from './behind-haproxy.suite';

const TABLE = 'so_prometheus_items';
const TOKEN = 'prometheus-test-dashboard-token';
const SCRAPE = '200ms';
/** Telemetry folds the counters into what /metrics reads once a second; then a few scrapes. */
const SETTLE_MS = 2000;
const REQUESTS = 400;
const MIN_WINDOW_MS = 15_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One request, answered 2xx, on a kept-alive connection. */
function send(agent: http.Agent, port: number, method: string, pathname: string, body?: unknown): Promise<void> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, method, path: pathname, agent, headers: payload === undefined ? {} : { 'content-type': 'application/json' } }, (response) => {
      response.resume();
      response.on('end', () => (response.statusCode! < 300 ? resolve() : reject(new Error(`${method} ${pathname} answered ${response.statusCode}`))));
    });
    request.on('error', reject);
    request.end(payload);
  });
}

describe('Prometheus scraping two replicas with the config of docs/dashboard.md', () => {
  const folder = temporaryFolder('prometheus');
  const replicas: Replica[] = [];
  const dashboardPorts: number[] = [];
  let prometheus: Prometheus;

  beforeAll(async () => {
    await recreateItems('postgres', TABLE);
    const out = path.join(folder.path, 'dist');
    await buildScaleApp('postgres', out, TABLE);
    for (const name of ['api-1', 'api-2']) {
      dashboardPorts.push(await freePort());
      const env = { SCALE_DIALECT: 'postgres', SCALE_TABLE: TABLE, SCALE_DATABASE_URL: POSTGRES_URL, DASHBOARD_PORT: String(dashboardPorts.at(-1)), DASHBOARD_TOKEN: TOKEN };
      replicas.push(new Replica(name, await freePort(), out, env));
    }
    for (const replica of replicas) await replica.start();
    prometheus = await startPrometheus((files) => {
      fs.writeFileSync(path.join(files, 'token'), TOKEN);
      return withReplacements(docsConfig('dashboard.md', 'prometheus.yml'), {
        'scrape_interval: 15s': `scrape_interval: ${SCRAPE}`,
        'credentials_file: /etc/prometheus/tessera-dashboard-token': `credentials_file: ${path.join(files, 'token')}`,
        "targets: ['10.0.0.11:4001', '10.0.0.12:4001', '10.0.0.13:4001']": `targets: [${dashboardPorts.map((port) => `'127.0.0.1:${port}'`).join(', ')}]`,
      });
    });
    await prometheus.targetsUp(2);
  }, 240_000);
  afterAll(async () => {
    await prometheus?.stop();
    for (const replica of replicas) await replica.stop();
  }, 60_000);

  it('sum(increase(tessera_http_requests_total)) across the replicas equals the requests sent, within 5%', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    // Every series the window counts (one per operation, method and status) exists, and has been scraped,
    // before the window opens: increase() measures from a series' first sample, so the requests a series
    // held when it first appeared inside the window would not be counted.
    for (const replica of replicas) {
      await send(agent, replica.port, 'POST', '/api/items', { title: 'warm-up' });
      await send(agent, replica.port, 'GET', '/api/items/1');
      await send(agent, replica.port, 'POST', '/api/items/query', { limit: 5 });
      await send(agent, replica.port, 'POST', '/api/items/count', {});
    }
    await sleep(SETTLE_MS);
    const opened = Date.now() / 1000;
    await sleep(SETTLE_MS);
    for (let index = 0; index < REQUESTS; index += 4) {
      const replica = replicas[(index / 4) % replicas.length];
      await Promise.all([
        send(agent, replica.port, 'POST', '/api/items', { title: `item ${index}` }),
        send(agent, replica.port, 'GET', '/api/items/1'),
        send(agent, replica.port, 'POST', '/api/items/query', { limit: 5 }),
        send(agent, replica.port, 'POST', '/api/items/count', {}),
      ]);
    }
    agent.destroy();
    // On a loaded machine the folding and the scrapes lag: the window closes once Prometheus has seen every
    // request on the raw counters (or after 30 s, and then the assertion below says how far it got).
    const [before] = await prometheus.query(`sum(tessera_http_requests_total{job="tessera"})`, opened);
    for (let waited = 0; waited < 30_000; waited += 500) {
      await sleep(500);
      const [now] = await prometheus.query(`sum(tessera_http_requests_total{job="tessera"})`, Date.now() / 1000);
      if (now - before >= REQUESTS) break;
    }
    await sleep(SETTLE_MS);
    // increase() extrapolates its samples to the window's ends, by up to one scrape interval in all: over a
    // window of at least 15 s with 200 ms scrapes that is within 1.4%, well inside the 5% asked.
    await sleep(Math.max(0, opened * 1000 + MIN_WINDOW_MS - Date.now()));
    const closed = Date.now() / 1000;
    const window = `${Math.ceil(closed - opened)}s`;
    const [counted] = await prometheus.query(`sum(increase(tessera_http_requests_total{job="tessera"}[${window}]))`, closed);
    const perReplica = await prometheus.query(`sum by (instance) (increase(tessera_http_requests_total{job="tessera"}[${window}]))`, closed);
    const [rate] = await prometheus.query(`sum(rate(tessera_http_requests_total{job="tessera"}[${window}]))`, closed);
    console.log(
      `Prometheus over two replicas: ${REQUESTS} requests sent, sum(increase(tessera_http_requests_total[${window}])) = ${counted.toFixed(1)} ` +
        `(${(((counted - REQUESTS) / REQUESTS) * 100).toFixed(2)}%; per replica ${perReplica.map((value) => value.toFixed(1)).join(', ')}), sum(rate(…)) = ${rate.toFixed(2)}/s`,
    );
    expect(perReplica).toHaveLength(2);
    expect(Math.abs(counted - REQUESTS) / REQUESTS).toBeLessThanOrEqual(0.05);
  }, 120_000);
});
