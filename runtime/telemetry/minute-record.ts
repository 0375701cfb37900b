// A minute of one operation (or of all, `*`) as the history keeps it: requests, errors, answers by status and
// by error code, and the latency histogram. Records of one minute add up (workers, restarts, late reports).
import { LatencyHistogram, type SparseHistogram } from './latency-histogram';

/** The operation of the records that add up every operation of their minute. */
export const ALL_OPERATIONS = '*';

export interface MinuteRecord {
  /** Minutes since the Unix epoch (UTC). */
  readonly minute: number;
  /** An operationId, `unmatched`, or `*` for every operation. */
  readonly operation: string;
  readonly requests: number;
  /** Answers with a status of 400 or more. */
  readonly errors: number;
  /** Answers with a status of 500 or more. */
  readonly serverErrors: number;
  readonly statuses: Readonly<Record<string, number>>;
  readonly codes: Readonly<Record<string, number>>;
  readonly latency: SparseHistogram;
}

/** One process's figures over a minute. */
export interface ProcessMinuteRecord {
  readonly minute: number;
  /** The process (pid). */
  readonly source: string;
  /** Resident memory and V8 heap in use at the end of the minute, bytes. */
  readonly rss: number;
  readonly heapUsed: number;
  /** CPU time used during the minute, seconds (user + system). */
  readonly cpuSeconds: number;
  /** The worst event-loop delay p99 and maximum seen during the minute, ms. */
  readonly loopP99: number;
  readonly loopMax: number;
}

/**
 * The processes' figures over a span of minutes, added up over the processes: what the charts draw, and what
 * the history's rollups keep per 5 minutes and per hour.
 */
export interface ProcessSpanRecord {
  /** The span's first minute. */
  readonly start: number;
  /** Minutes of the span with figures (the server ran). */
  readonly minutes: number;
  /** The highest minute's resident memory and heap in use, all processes added, bytes. */
  readonly rss: number;
  readonly heapUsed: number;
  /** CPU time used during the span, all processes, seconds. */
  readonly cpuSeconds: number;
  /** The worst event-loop delay p99 of any process and minute, ms. */
  readonly loopP99: number;
}

/** Per-minute totals over the processes: one span record of one minute for each minute present. */
export function processTotals(records: readonly ProcessMinuteRecord[]): ProcessSpanRecord[] {
  const byMinute = new Map<number, { start: number; minutes: number; rss: number; heapUsed: number; cpuSeconds: number; loopP99: number }>();
  for (const record of records) {
    const total = byMinute.get(record.minute) ?? { start: record.minute, minutes: 1, rss: 0, heapUsed: 0, cpuSeconds: 0, loopP99: 0 };
    total.rss += record.rss;
    total.heapUsed += record.heapUsed;
    total.cpuSeconds += record.cpuSeconds;
    total.loopP99 = Math.max(total.loopP99, record.loopP99);
    byMinute.set(record.minute, total);
  }
  return [...byMinute.values()];
}

/** Two records of the same span (a stored rollup and new minutes) as one. */
export function mergeProcessSpans(start: number, a: ProcessSpanRecord, b: ProcessSpanRecord): ProcessSpanRecord {
  return { start, minutes: a.minutes + b.minutes, rss: Math.max(a.rss, b.rss), heapUsed: Math.max(a.heapUsed, b.heapUsed), cpuSeconds: a.cpuSeconds + b.cpuSeconds, loopP99: Math.max(a.loopP99, b.loopP99) };
}

export function addCounts(into: Record<string, number>, counts: Readonly<Record<string, number>>): void {
  for (const key in counts) into[key] = (into[key] ?? 0) + counts[key];
}

/** A minute being filled, for one operation or for all. */
export class MinuteAccumulator {
  requests = 0;
  errors = 0;
  serverErrors = 0;
  readonly statuses: Record<string, number> = {};
  readonly codes: Record<string, number> = {};
  readonly latency = new LatencyHistogram();

  add(statuses: Readonly<Record<string, number>>, codes: Readonly<Record<string, number>>, latency: SparseHistogram): void {
    for (const status in statuses) {
      const count = statuses[status];
      this.requests += count;
      if (Number(status) >= 400) this.errors += count;
      if (Number(status) >= 500) this.serverErrors += count;
    }
    addCounts(this.statuses, statuses);
    addCounts(this.codes, codes);
    this.latency.addSparse(latency);
  }

  addRecord(record: MinuteRecord): void {
    this.requests += record.requests;
    this.errors += record.errors;
    this.serverErrors += record.serverErrors;
    addCounts(this.statuses, record.statuses);
    addCounts(this.codes, record.codes);
    this.latency.addSparse(record.latency);
  }

  toRecord(minute: number, operation: string): MinuteRecord {
    return { minute, operation, requests: this.requests, errors: this.errors, serverErrors: this.serverErrors, statuses: { ...this.statuses }, codes: { ...this.codes }, latency: this.latency.toSparse() };
  }
}
