// The telemetry of one application made by createServer with `dashboard` (CONTRACT §8): its request
// recorder (the hot path), the process and database figures, and the aggregate a dashboard in this
// process reads. createServer attaches it to the application; startDashboard and the cluster reporter find it there.
import type { ResolvedDashboardOptions } from '../dashboard/dashboard-options';
import type { Service } from '../service';
import { ProcessSampler } from './process-sampler';
import { processMetricsRegistry } from './process-metrics';
import { RequestRecorder } from './request-recorder';
import { checkDatabases, databaseSamples, servedDatabases, type ServedDatabase } from './served-databases';
import { TelemetryAggregate } from './telemetry-aggregate';
import type { DatabaseHealth, ProcessSample, TelemetryReport } from './telemetry-report';
import type { TelemetrySource } from './telemetry-source';

export class AppTelemetry implements TelemetrySource {
  readonly title: string;
  readonly options: ResolvedDashboardOptions;
  readonly recorder = new RequestRecorder();
  readonly aggregate: TelemetryAggregate;
  readonly #databases: readonly ServedDatabase[];
  readonly #sampler = new ProcessSampler();
  #openCount = 0;

  constructor(title: string, services: readonly Service[], options: ResolvedDashboardOptions, now: () => number = Date.now) {
    this.title = title;
    this.options = options;
    this.#databases = servedDatabases(services);
    this.aggregate = new TelemetryAggregate(now);
  }

  /** What happened since the previous report; the recorder's counters start again from zero. */
  takeReport(role: ProcessSample['role'], at: number = Date.now()): TelemetryReport {
    return {
      source: String(process.pid),
      at,
      operations: this.recorder.drain(),
      inFlight: this.recorder.inFlight,
      process: this.#sampler.sample(role),
      databases: databaseSamples(this.#databases),
    };
  }

  refresh(): void {
    this.aggregate.add(this.takeReport('process'));
  }

  checkDatabases(): Promise<DatabaseHealth[]> {
    return checkDatabases(this.#databases);
  }

  processMetrics(): Promise<string> {
    return processMetricsRegistry().metrics();
  }

  open(): void {
    if (this.#openCount++ === 0) this.#sampler.start();
  }

  close(): void {
    if (this.#openCount > 0 && --this.#openCount === 0) this.#sampler.stop();
  }
}

const telemetries = new WeakMap<object, AppTelemetry>();

/** @internal createServer: `app` records into `telemetry`. */
export function attachTelemetry(app: object, telemetry: AppTelemetry): void {
  telemetries.set(app, telemetry);
}

/** @internal The telemetry of an application made by createServer with `dashboard`, or undefined. */
export function telemetryOf(app: object): AppTelemetry | undefined {
  return telemetries.get(app);
}
