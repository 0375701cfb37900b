// What a dashboard reads: the aggregate of one process's telemetry (an application made by createServer
// with `dashboard`), or of a cluster's workers (the primary's collector). Both look the same to it.
import type { ResolvedDashboardOptions } from '../dashboard/dashboard-options';
import type { TelemetryAggregate } from './telemetry-aggregate';
import type { DatabaseHealth } from './telemetry-report';

export interface TelemetrySource {
  /** The application's title (the `title` server option), shown in the page's header. */
  readonly title: string;
  readonly options: ResolvedDashboardOptions;
  readonly aggregate: TelemetryAggregate;
  /** Brings the aggregate up to date: each second while a dashboard runs, and before each read. */
  refresh(): void;
  /** Runs the health query on every database now (in a cluster, in every worker). */
  checkDatabases(): Promise<DatabaseHealth[]>;
  /** prom-client's process and Node.js metrics, as Prometheus text: this process's, or the workers' aggregated. */
  processMetrics(): Promise<string>;
  /** Starts what a running dashboard needs (the event-loop monitor); `close` stops it. */
  open(): void;
  close(): void;
}
