// What one process tells the aggregate about the last interval: plain JSON, so the same report travels
// from a worker to the cluster primary over IPC as it goes from the recorder to the aggregate in one process.
import type { StatementCacheStats } from '../sql/statement-cache';
import type { SparseHistogram } from './latency-histogram';

/** The requests of one operation and method since the previous report. */
export interface OperationDelta {
  /** The route's operationId (`shop.notes.get`), or `unmatched`. */
  readonly operation: string;
  readonly method: string;
  readonly requests: number;
  /** Answers by HTTP status (`"200": 12`). */
  readonly statuses: Readonly<Record<string, number>>;
  /** Error answers by CONTRACT §4 code (`"NOT_FOUND": 2`), or `HTTP_<status>` when no code was sent. */
  readonly codes: Readonly<Record<string, number>>;
  /** Time from the first layer of the application to the end of the response. */
  readonly latency: SparseHistogram;
  /** The latest error answer of the interval: its code and when (ms since the epoch). */
  readonly lastError: { readonly code: string; readonly at: number } | null;
}

/** Event-loop delay over the interval, in milliseconds (perf_hooks.monitorEventLoopDelay). */
export interface EventLoopDelay {
  readonly mean: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

export interface ProcessSample {
  readonly pid: number;
  /** `process` for a single process, `worker` for a cluster worker, `primary` for the cluster primary. */
  readonly role: 'process' | 'worker' | 'primary';
  /** Seconds since the process started. */
  readonly uptime: number;
  readonly memory: { readonly rss: number; readonly heapUsed: number; readonly heapTotal: number; readonly external: number };
  /** CPU time used since the process started, in microseconds (process.cpuUsage()). */
  readonly cpu: { readonly user: number; readonly system: number };
  readonly eventLoop: EventLoopDelay;
}

/** One database of the served services: who uses it and its statement cache (spec §8), cumulative. */
export interface DatabaseSample {
  /** The names of the services on this database, joined with `,` (`shop` or `billing,shop`). */
  readonly name: string;
  readonly dialect: string;
  readonly statementCache: StatementCacheStats;
}

export interface TelemetryReport {
  /** The reporting process (its pid, as text). */
  readonly source: string;
  /** When the report was taken, ms since the epoch. */
  readonly at: number;
  readonly operations: readonly OperationDelta[];
  /** Requests being answered at `at`. */
  readonly inFlight: number;
  readonly process: ProcessSample;
  readonly databases: readonly DatabaseSample[];
}

/** A database's answer to the health query (the one `/_health` runs), in one process. */
export interface DatabaseHealth {
  readonly name: string;
  readonly dialect: string;
  /** `ok`, or why the check failed (the driver's error code, never its text). */
  readonly status: string;
  /** ms since the epoch. */
  readonly checkedAt: number;
}

/** The IPC messages between cluster workers and the primary. */
export const REPORT_MESSAGE = 'tessera:telemetry-report';
export const PROBE_MESSAGE = 'tessera:telemetry-probe';
export const HEALTH_MESSAGE = 'tessera:telemetry-health';

export interface ReportMessage {
  readonly type: typeof REPORT_MESSAGE;
  readonly report: TelemetryReport;
}

export interface ProbeMessage {
  readonly type: typeof PROBE_MESSAGE;
  readonly id: number;
}

export interface HealthMessage {
  readonly type: typeof HEALTH_MESSAGE;
  readonly id: number;
  readonly databases: readonly DatabaseHealth[];
}

function isMessage(message: unknown, type: string): boolean {
  return typeof message === 'object' && message !== null && (message as { type?: unknown }).type === type;
}

export function isReportMessage(message: unknown): message is ReportMessage {
  return isMessage(message, REPORT_MESSAGE) && typeof (message as ReportMessage).report === 'object';
}

export function isProbeMessage(message: unknown): message is ProbeMessage {
  return isMessage(message, PROBE_MESSAGE) && typeof (message as ProbeMessage).id === 'number';
}

export function isHealthMessage(message: unknown): message is HealthMessage {
  return isMessage(message, HEALTH_MESSAGE) && Array.isArray((message as HealthMessage).databases);
}
