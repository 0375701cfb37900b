// Telemetry of a real two-worker node:cluster (cluster-program.ts): the workers' reports merge in the
// primary, whose dashboard counts exactly the requests both workers answered, in /metrics (with prom-client's
// process metrics aggregated over the workers), api/summary and api/databases, and whose history file holds
// them all after a graceful stop.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { promtoolCheckMetrics } from '../../helpers/api-linters';
import { parsePrometheusText, type Exposition } from '../../helpers/prometheus-text';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const PROGRAM = path.join(__dirname, 'cluster-program.ts');
const TOKEN = 'cluster-token';
const START_TIMEOUT_MS = 60_000;

interface Cluster {
  child: ChildProcess;
  dashboard: string;
  api: string;
  stderr: () => string;
}

function startCluster(historyFile: string): Promise<Cluster> {
  const child = spawn(process.execPath, ['--import', 'tsx', PROGRAM], { cwd: REPO_ROOT, env: { ...process.env, HISTORY_FILE: historyFile }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the cluster did not start within ${START_TIMEOUT_MS} ms: ${stderr}`));
    }, START_TIMEOUT_MS);
    child.once('exit', (code) => reject(new Error(`the cluster exited with ${code}: ${stderr}`)));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const line = stdout.split('\n').find((each) => each.startsWith('{'));
      if (line === undefined) return;
      clearTimeout(timer);
      const { dashboard, api } = JSON.parse(line) as { dashboard: string; api: string };
      resolve({ child, dashboard, api, stderr: () => stderr });
    });
  });
}

/** One request on a connection of its own (`agent: false`), so the cluster hands each to the next worker. */
function request(url: string, method = 'GET', body?: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request(url, { method, agent: false, headers: body === undefined ? {} : { 'content-type': 'application/json' } }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, text }));
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

async function dashboardGet(cluster: Cluster, route: string): Promise<string> {
  const response = await fetch(`${cluster.dashboard}${route}`, { headers: { authorization: `Bearer ${TOKEN}` } });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${route} answered ${response.status}: ${text}`);
  return text;
}

/** Waits for the workers' next reports (one a second) to bring the primary's counts to `total`. */
async function metricsWhenCounted(cluster: Cluster, total: number): Promise<Exposition> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const metrics = parsePrometheusText(await dashboardGet(cluster, '/metrics'));
    const counted = metrics.find('tessera_http_requests_total').reduce((sum, sample) => sum + sample.value, 0);
    if (counted === total) return metrics;
    if (counted > total || Date.now() > deadline) throw new Error(`the primary counts ${counted} requests, ${total} were sent`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function stopCluster(cluster: Cluster): Promise<number | null> {
  if (cluster.child.exitCode !== null) return Promise.resolve(cluster.child.exitCode);
  return new Promise((resolve) => {
    const timer = setTimeout(() => cluster.child.kill('SIGKILL'), 15_000);
    cluster.child.removeAllListeners('exit');
    cluster.child.once('exit', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
    cluster.child.kill('SIGTERM');
  });
}

describe('telemetry of a two-worker cluster', () => {
  let folder: string;
  let cluster: Cluster | null = null;

  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-cluster-'));
  });
  afterEach(async () => {
    if (cluster !== null) await stopCluster(cluster);
    cluster = null;
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('counts in the primary exactly the requests both workers answered, and keeps them in the history', async () => {
    const historyFile = path.join(folder, 'history.db');
    cluster = await startCluster(historyFile);

    const pids = new Set<number>();
    for (let index = 0; index < 10; index++) pids.add((JSON.parse((await request(`${cluster.api}/api/cluster/whoami`, 'POST', '{}')).text) as { pid: number }).pid);
    for (let index = 0; index < 20; index++) expect((await request(`${cluster.api}/api/notes/1`)).status).toBe(200);
    for (let index = 0; index < 6; index++) expect((await request(`${cluster.api}/api/notes/2`)).status).toBe(404);
    for (let index = 0; index < 4; index++) expect((await request(`${cluster.api}/elsewhere`)).status).toBe(404);
    expect(pids.size).toBe(2); // both workers answered

    const metrics = await metricsWhenCounted(cluster, 40);
    expect(metrics.value('tessera_http_requests_total', { operation: 'cluster.whoami', status: '200' })).toBe(10);
    expect(metrics.value('tessera_http_requests_total', { operation: 'cluster.notes.get', status: '200' })).toBe(20);
    expect(metrics.value('tessera_http_requests_total', { operation: 'cluster.notes.get', status: '404' })).toBe(6);
    expect(metrics.value('tessera_http_requests_total', { operation: 'unmatched', status: '404' })).toBe(4);
    expect(metrics.value('tessera_http_request_errors_total', { operation: 'cluster.notes.get', code: 'NOT_FOUND' })).toBe(6);
    expect(metrics.value('tessera_http_request_duration_seconds_count', { operation: 'cluster.notes.get', method: 'GET' })).toBe(26);
    expect(metrics.value('tessera_http_request_duration_seconds_bucket', { operation: 'cluster.notes.get', method: 'GET', le: '+Inf' })).toBe(26);
    // Each worker's statement cache, added up (two caches of 128).
    expect(metrics.value('tessera_statement_cache_capacity', { database: 'cluster' })).toBe(256);
    expect(metrics.value('tessera_statement_cache_hits_total', { database: 'cluster' })).toBeGreaterThanOrEqual(20);
    // prom-client's AggregatorRegistry asked both workers for their process metrics.
    expect(metrics.value('process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(metrics.find('nodejs_heap_size_used_bytes')).toHaveLength(1);
    expect(metrics.value('tessera_database_up', { database: 'cluster', dialect: 'sqlite' })).toBe(1);
    // The aggregated exposition passes Prometheus's own checker too (issue 32).
    expect(await promtoolCheckMetrics(await dashboardGet(cluster, '/metrics'))).toEqual({ status: 0, output: '' });

    const summary = JSON.parse(await dashboardGet(cluster, '/api/summary'));
    expect(summary.title).toBe('Cluster');
    expect(summary.processes.map((each: { role: string }) => each.role).sort()).toEqual(['primary', 'worker', 'worker']);
    expect(summary.processes.filter((each: { role: string }) => each.role === 'worker').map((each: { pid: number }) => each.pid).sort()).toEqual([...pids].sort());
    const get = summary.operations.find((each: { operation: string }) => each.operation === 'cluster.notes.get');
    expect(get).toMatchObject({ requests: 26, errors: 6, codes: { NOT_FOUND: 6 } });
    // The health check runs in both workers (over IPC) and answers for the one database they serve.
    const { databases } = JSON.parse(await dashboardGet(cluster, '/api/databases'));
    expect(databases).toEqual([expect.objectContaining({ name: 'cluster', dialect: 'sqlite', status: 'ok' })]);

    expect(await stopCluster(cluster)).toBe(0);
    const db = new Database(historyFile, { readonly: true });
    try {
      const stored = db.prepare("SELECT operation, SUM(requests) AS requests FROM tessera_minutes WHERE operation != '*' GROUP BY operation ORDER BY operation").all();
      expect(stored).toEqual([
        { operation: 'cluster.notes.get', requests: 26 },
        { operation: 'cluster.whoami', requests: 10 },
        { operation: 'unmatched', requests: 4 },
      ]);
      const workers = db.prepare('SELECT COUNT(DISTINCT source) AS sources FROM tessera_process_minutes').get() as { sources: number };
      expect(workers.sources).toBe(3);
    } finally {
      db.close();
    }
    expect(cluster.stderr()).toBe('');
  }, 120_000);
});
