// Telemetry of a node:cluster (several workers on one port): each worker's reporter sends what it recorded
// to the primary every second over the cluster's IPC channel, and the primary's collector merges the
// reports into one aggregate, which a dashboard started in the primary serves. Histograms and counters
// merge by addition, so the primary's figures are exactly those of all workers together. prom-client's
// process metrics travel through its own AggregatorRegistry, asked at each scrape.
import cluster, { type Worker } from 'node:cluster';
import { promClient } from './prom-client';
import { resolveDashboardOptions, type ResolvedDashboardOptions } from '../dashboard/dashboard-options';
import { SetupError } from '../errors';
import { DEFAULT_TITLE } from '../server/openapi-route';
import { telemetryOf } from './app-telemetry';
import { mergeHealth, PROBE_TIMEOUT_MS } from './cluster-health';
import { ProcessSampler } from './process-sampler';
import { processMetricsRegistry } from './process-metrics';
import { TelemetryAggregate } from './telemetry-aggregate';
import {
  HEALTH_MESSAGE,
  isHealthMessage,
  isProbeMessage,
  isReportMessage,
  PROBE_MESSAGE,
  REPORT_MESSAGE,
  type DatabaseHealth,
  type HealthMessage,
  type ProbeMessage,
  type ReportMessage,
} from './telemetry-report';
import type { TelemetrySource } from './telemetry-source';

/** How often a worker reports. */
export const REPORT_INTERVAL_MS = 1000;
export interface TelemetryReporter {
  /** Sends a last report and stops (call it when the worker shuts down); resolves once the report is on its way. */
  stop(): Promise<void>;
}

/**
 * In a cluster worker: reports the telemetry of `app` (made by createServer with `dashboard`) to the primary
 * every second, and answers the primary's health checks. The primary runs createTelemetryCollector.
 *
 * @example
 * if (cluster.isWorker) { const app = createServer(options); app.listen(port); startTelemetryReporter(app); }
 */
export function startTelemetryReporter(app: object, options: { intervalMs?: number } = {}): TelemetryReporter {
  const telemetry = telemetryOf(app);
  if (telemetry === undefined) throw new SetupError('startTelemetryReporter: the application was created without the dashboard option, so it records nothing');
  const send = process.send?.bind(process);
  if (send === undefined) throw new SetupError('startTelemetryReporter: this process has no IPC channel to a primary (start it as a node:cluster worker)');
  // prom-client's primary asks each worker's registries at each scrape: hand it this process's metrics.
  const { AggregatorRegistry: Aggregator } = promClient();
  Aggregator.setRegistries([processMetricsRegistry()]);
  new Aggregator();

  telemetry.open();
  const report = (sent?: () => void) => {
    if (!process.connected) return sent?.();
    const message: ReportMessage = { type: REPORT_MESSAGE, report: telemetry.takeReport('worker') };
    send(message, undefined, undefined, () => sent?.());
  };
  const onMessage = (message: unknown) => {
    if (!isProbeMessage(message)) return;
    void telemetry.checkDatabases().then((databases) => {
      const answer: HealthMessage = { type: HEALTH_MESSAGE, id: message.id, databases };
      if (process.connected) send(answer);
    });
  };
  process.on('message', onMessage);
  const timer = setInterval(() => report(), options.intervalMs ?? REPORT_INTERVAL_MS);
  timer.unref();
  let stopping: Promise<void> | null = null;
  return {
    stop() {
      stopping ??= new Promise<void>((resolve) => {
        clearInterval(timer);
        process.off('message', onMessage);
        report(() => {
          telemetry.close();
          resolve();
        });
      });
      return stopping;
    },
  };
}

interface PendingProbe {
  expected: Set<number>;
  answers: DatabaseHealth[][];
  resolve: () => void;
}

/** In the cluster primary: the aggregate of every worker's reports, to serve with startDashboard. */
export class TelemetryCollector implements TelemetrySource {
  readonly title: string;
  readonly options: ResolvedDashboardOptions;
  readonly aggregate: TelemetryAggregate;
  readonly #sampler = new ProcessSampler();
  readonly #metrics = new (promClient().AggregatorRegistry)();
  readonly #probes = new Map<number, PendingProbe>();
  #nextProbe = 0;
  #listening = false;

  readonly #onMessage = (worker: Worker, message: unknown) => {
    if (isReportMessage(message)) {
      this.aggregate.add(message.report);
      return;
    }
    if (!isHealthMessage(message)) return;
    const probe = this.#probes.get(message.id);
    if (probe === undefined || !probe.expected.delete(worker.id)) return;
    probe.answers.push([...message.databases]);
    if (probe.expected.size === 0) probe.resolve();
  };

  constructor(title: string, options: ResolvedDashboardOptions, now: () => number = Date.now) {
    this.title = title;
    this.options = options;
    this.aggregate = new TelemetryAggregate(now);
    // Reports are counted from the collector's creation: create it before forking the workers.
    this.#listen();
  }

  refresh(): void {
    // The workers' figures arrive on their own; the primary adds its own process's.
    this.aggregate.add({ source: String(process.pid), at: Date.now(), operations: [], inFlight: 0, process: this.#sampler.sample('primary'), databases: [] });
  }

  /** Asks every connected worker to run the health query; a database is as healthy as its worst worker says. */
  async checkDatabases(): Promise<DatabaseHealth[]> {
    const workers = Object.values(cluster.workers ?? {}).filter((worker): worker is Worker => worker !== undefined && worker.isConnected());
    if (workers.length === 0) return [];
    const id = this.#nextProbe++;
    let timer: NodeJS.Timeout | undefined;
    const probe: PendingProbe = { expected: new Set(workers.map((worker) => worker.id)), answers: [], resolve: () => {} };
    const answered = new Promise<void>((resolve) => {
      probe.resolve = resolve;
      timer = setTimeout(resolve, PROBE_TIMEOUT_MS);
    });
    this.#probes.set(id, probe);
    const message: ProbeMessage = { type: PROBE_MESSAGE, id };
    for (const worker of workers) worker.send(message);
    await answered;
    clearTimeout(timer);
    this.#probes.delete(id);
    return mergeHealth(probe.answers, probe.expected.size);
  }

  async processMetrics(): Promise<string> {
    try {
      return await this.#metrics.clusterMetrics();
    } catch {
      return ''; // a worker that did not answer within prom-client's 5 s: Tessera's own families still answer
    }
  }

  open(): void {
    this.#listen();
    this.#sampler.start();
  }

  /** Stops listening to the workers. */
  close(): void {
    this.#sampler.stop();
    if (this.#listening) cluster.off('message', this.#onMessage);
    this.#listening = false;
  }

  #listen(): void {
    if (this.#listening) return;
    if (!cluster.isPrimary) throw new SetupError('createTelemetryCollector: call it in the cluster primary (workers use startTelemetryReporter)');
    cluster.on('message', this.#onMessage);
    this.#listening = true;
  }
}

/**
 * In the cluster primary: collects the workers' telemetry (each runs startTelemetryReporter) for a
 * dashboard: `startDashboard(createTelemetryCollector(options.dashboard))`.
 *
 * @example
 * if (cluster.isPrimary) { const dashboard = await startDashboard(createTelemetryCollector(options.dashboard)); cluster.fork(); }
 */
export function createTelemetryCollector(dashboard: unknown, options: { title?: string } = {}): TelemetryCollector {
  return new TelemetryCollector(options.title ?? DEFAULT_TITLE, resolveDashboardOptions(dashboard));
}
