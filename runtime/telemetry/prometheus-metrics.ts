// GET /metrics (CONTRACT §8): Tessera's metric families read from the aggregate at each scrape, written by
// prom-client's registry (its exposition format and label escaping), followed by prom-client's default
// process metrics. Families are built from the aggregate rather than observed per request, so the request
// path never touches prom-client and the counts are exactly those of the page.
import type { Registry } from 'prom-client';
import { promClient } from './prom-client';
import { edgeIndex } from './latency-histogram';
import type { TelemetrySource } from './telemetry-source';
import type { DatabaseHealth } from './telemetry-report';

/** `le` bounds of tessera_http_request_duration_seconds, in seconds: the 1-2.5-5 series, each a histogram edge. */
export const DURATION_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const BOUND_INDEXES = DURATION_BUCKETS.map((seconds) => edgeIndex(Math.round(seconds * 1e6)));

type Labels = Record<string, string | number>;
interface MetricValue {
  value: number;
  labels: Labels;
  metricName?: string;
}
type MetricType = 'counter' | 'gauge' | 'histogram';

/** A metric family as prom-client's Registry takes it: `get()` answers its current values. */
function family(name: string, help: string, type: MetricType, values: () => MetricValue[] | Promise<MetricValue[]>) {
  return {
    name,
    help,
    type,
    aggregator: 'sum' as const,
    async get() {
      return { name, help, type, aggregator: 'sum' as const, values: await values() };
    },
    reset() {},
  };
}

/** Statement cache and database families come from the same sample; it is refreshed by the first. */
function databaseFamilies(source: TelemetrySource, health: () => Promise<readonly DatabaseHealth[]>) {
  const caches = () => source.aggregate.databases();
  const cacheFamily = (name: string, help: string, type: MetricType, pick: (stats: ReturnType<typeof caches>[number]['statementCache']) => number) =>
    family(name, help, type, () => caches().map((database) => ({ value: pick(database.statementCache), labels: { database: database.name } })));
  return [
    cacheFamily('tessera_statement_cache_statements', 'Prepared statements held in the statement cache (spec §8)', 'gauge', (stats) => stats.size),
    cacheFamily('tessera_statement_cache_capacity', 'Statements the statement cache can hold (128 per process)', 'gauge', (stats) => stats.capacity),
    cacheFamily('tessera_statement_cache_hits_total', 'Calls that found their query shape prepared', 'counter', (stats) => stats.hits),
    cacheFamily('tessera_statement_cache_misses_total', 'Calls that prepared a statement', 'counter', (stats) => stats.misses),
    cacheFamily('tessera_statement_cache_evictions_total', 'Statements dropped to make room, least recently used first', 'counter', (stats) => stats.evictions),
    family('tessera_database_up', 'Whether the database answered the health query (1) or not (0)', 'gauge', async () =>
      (await health()).map((database) => ({ value: database.status === 'ok' ? 1 : 0, labels: { database: database.name, dialect: database.dialect } })),
    ),
  ];
}

/** The registry of Tessera's families for one dashboard; `health` answers the latest database checks. */
export function tesseraRegistry(source: TelemetrySource, health: () => Promise<readonly DatabaseHealth[]>): Registry {
  const registry = new (promClient().Registry)();
  const totals = () => source.aggregate.totals();
  const metrics = [
    family('tessera_http_requests_total', 'Requests answered, by operation (operationId, or unmatched), method and status', 'counter', () =>
      totals().flatMap(({ operation, method, statuses }) => Object.entries(statuses).map(([status, value]) => ({ value, labels: { operation, method, status } }))),
    ),
    family('tessera_http_request_errors_total', 'Error answers (status 400 or more), by operation, method and error code', 'counter', () =>
      totals().flatMap(({ operation, method, codes }) => Object.entries(codes).map(([code, value]) => ({ value, labels: { operation, method, code } }))),
    ),
    family('tessera_http_request_duration_seconds', 'Time from the first layer of the application to the end of the response', 'histogram', () =>
      totals().flatMap(({ operation, method, latency }) => {
        const cumulative = latency.cumulativeCounts(BOUND_INDEXES);
        const values: MetricValue[] = DURATION_BUCKETS.map((le, index) => ({ value: cumulative[index], labels: { operation, method, le }, metricName: 'tessera_http_request_duration_seconds_bucket' }));
        values.push({ value: latency.count, labels: { operation, method, le: '+Inf' }, metricName: 'tessera_http_request_duration_seconds_bucket' });
        values.push({ value: latency.sum / 1e6, labels: { operation, method }, metricName: 'tessera_http_request_duration_seconds_sum' });
        values.push({ value: latency.count, labels: { operation, method }, metricName: 'tessera_http_request_duration_seconds_count' });
        return values;
      }),
    ),
    family('tessera_http_requests_in_flight', 'Requests being answered now', 'gauge', () => [{ value: source.aggregate.inFlight(), labels: {} }]),
    ...databaseFamilies(source, health),
  ];
  for (const metric of metrics) registry.registerMetric(metric as never);
  return registry;
}

