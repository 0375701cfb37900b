// The JSON the dashboard's routes answer (docs/dashboard.md lists them): the live summary, the databases
// with their health and statement caches, and the chart series. Times are ms since the epoch, latencies ms,
// rates percent; a figure that has no data yet is null.
import type { LatencyHistogram } from '../telemetry/latency-histogram';
import type { DashboardHistory } from './dashboard-history';
import type { DatabaseHealth } from '../telemetry/telemetry-report';
import type { TelemetrySource } from '../telemetry/telemetry-source';

function ms(histogram: LatencyHistogram, q: number): number | null {
  const micros = histogram.quantile(q);
  return micros === null ? null : micros / 1000;
}

function percent(part: number, whole: number): number | null {
  return whole === 0 ? null : (part / whole) * 100;
}

/** GET api/summary: the tiles (last 60 s), the operations (since the start), the processes and the statement caches. */
export function summaryView(source: TelemetrySource, history: DashboardHistory) {
  const { aggregate } = source;
  const window = aggregate.window();
  return {
    title: source.title,
    generatedAt: Date.now(),
    startedAt: aggregate.startedAt,
    window: {
      seconds: window.seconds,
      requests: window.requests,
      requestsPerSecond: window.requests / window.seconds,
      errorRate: percent(window.errors, window.requests),
      serverErrorRate: percent(window.serverErrors, window.requests),
      latency: { p50: ms(window.latency, 0.5), p95: ms(window.latency, 0.95), p99: ms(window.latency, 0.99) },
    },
    inFlight: aggregate.inFlight(),
    operations: aggregate.totals().map((totals) => {
      const errors = Object.values(totals.codes).reduce((sum, count) => sum + count, 0);
      return {
        operation: totals.operation,
        method: totals.method,
        requests: totals.requests,
        errors,
        codes: { ...totals.codes },
        statuses: { ...totals.statuses },
        p50: ms(totals.latency, 0.5),
        p99: ms(totals.latency, 0.99),
        lastError: totals.lastError === null ? null : { ...totals.lastError },
      };
    }),
    processes: aggregate.processes().map(({ sample, cpuPercent, inFlight }) => ({
      pid: sample.pid,
      role: sample.role,
      uptime: sample.uptime,
      memory: { ...sample.memory },
      cpuPercent,
      eventLoop: { ...sample.eventLoop },
      inFlight,
    })),
    databases: aggregate.databases().map(({ name, dialect, statementCache }) => ({
      name,
      dialect,
      statementCache: { ...statementCache, hitRate: percent(statementCache.hits, statementCache.hits + statementCache.misses) },
    })),
    history: { file: history.store.file, status: history.store.status, historyDays: source.options.historyDays },
  };
}

/** GET api/databases: each database's health (the query `/_health` runs, now) beside its statement cache. */
export function databasesView(source: TelemetrySource, health: readonly DatabaseHealth[]) {
  const caches = new Map(source.aggregate.databases().map((database) => [database.name, database.statementCache]));
  const names = [...new Set([...health.map((database) => database.name), ...caches.keys()])].sort();
  return {
    databases: names.map((name) => {
      const checked = health.find((database) => database.name === name);
      const cache = caches.get(name) ?? null;
      return {
        name,
        dialect: checked?.dialect ?? source.aggregate.databases().find((database) => database.name === name)?.dialect ?? null,
        status: checked?.status ?? 'not checked',
        checkedAt: checked?.checkedAt ?? null,
        statementCache: cache === null ? null : { ...cache, hitRate: percent(cache.hits, cache.hits + cache.misses) },
      };
    }),
  };
}
