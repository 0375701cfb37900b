// Turns per-minute records into the chart points of the dashboard: the last hour in 1-minute points, the
// last day in 5-minute points, and the whole history (`historyDays`) in 1-hour points. A point the server
// was not running for is null (a gap in the chart), not zero.
import { LatencyHistogram } from './latency-histogram';
import type { MinuteRecord, ProcessSpanRecord } from './minute-record';

export const SERIES_RANGES = ['hour', 'day', 'history'] as const;
export type SeriesRange = (typeof SERIES_RANGES)[number];

/** Columns of equal length, one entry per point, as uPlot takes them. Times are Unix seconds (a point's start). */
export interface Series {
  readonly range: SeriesRange;
  readonly stepSeconds: number;
  readonly time: number[];
  /** Requests answered during the point (null when the server did not run). */
  readonly requests: (number | null)[];
  readonly errors: (number | null)[];
  readonly requestsPerSecond: (number | null)[];
  /** Percent of answers with a status of 400 or more. */
  readonly errorRate: (number | null)[];
  /** Milliseconds. */
  readonly p50: (number | null)[];
  readonly p95: (number | null)[];
  readonly p99: (number | null)[];
  /** Bytes, the highest minute of the point, added over the processes. */
  readonly rss: (number | null)[];
  readonly heapUsed: (number | null)[];
  /** Percent of one core, added over the processes. */
  readonly cpuPercent: (number | null)[];
  /** Milliseconds, the worst process and minute of the point. */
  readonly eventLoopP99: (number | null)[];
}

/** How many minutes each point of a range spans, and how many points there are. */
export function rangeShape(range: SeriesRange, historyDays: number): { stepMinutes: number; points: number } {
  if (range === 'hour') return { stepMinutes: 1, points: 60 };
  if (range === 'day') return { stepMinutes: 5, points: 288 };
  return { stepMinutes: 60, points: Math.max(1, Math.round(historyDays * 24)) };
}

/** The first minute a range shows at `now` (ms). */
export function rangeStartMinute(range: SeriesRange, historyDays: number, now: number): number {
  const { stepMinutes, points } = rangeShape(range, historyDays);
  const lastPoint = Math.floor(Math.floor(now / 60_000) / stepMinutes) * stepMinutes;
  return lastPoint - (points - 1) * stepMinutes;
}

interface Point {
  requests: number;
  errors: number;
  latency: LatencyHistogram | null;
  /** Seconds the server ran during the point (minutes with process figures). */
  seconds: number;
  cpuSeconds: number;
  hasData: boolean;
  rss: number | null;
  heapUsed: number | null;
  loopP99: number;
}

function ms(micros: number | null): number | null {
  return micros === null ? null : micros / 1000;
}

/**
 * Chart points from records of one operation (per minute, or rollups of the step's span) and the processes'
 * totals at either grain. Records add up, so a point may take a stored rollup and the minutes not written yet.
 */
export function buildSeries(range: SeriesRange, historyDays: number, now: number, operations: readonly MinuteRecord[], processes: readonly ProcessSpanRecord[]): Series {
  const { stepMinutes, points: count } = rangeShape(range, historyDays);
  const first = rangeStartMinute(range, historyDays, now);
  const currentMinute = Math.floor(now / 60_000);
  const points: Point[] = Array.from({ length: count }, () => ({ requests: 0, errors: 0, latency: null, seconds: 0, cpuSeconds: 0, hasData: false, rss: null, heapUsed: null, loopP99: 0 }));
  const pointOf = (minute: number): Point | undefined => (minute < first ? undefined : points[Math.floor((minute - first) / stepMinutes)]);

  for (const record of processes) {
    const point = pointOf(record.start);
    if (point === undefined) continue;
    point.hasData = true;
    // The minute in progress counts the seconds gone so far.
    const isCurrent = record.minutes === 1 && record.start === currentMinute;
    point.seconds = Math.min(stepMinutes * 60, point.seconds + (isCurrent ? Math.max(1, (now - currentMinute * 60_000) / 1000) : record.minutes * 60));
    point.cpuSeconds += record.cpuSeconds;
    point.rss = Math.max(point.rss ?? 0, record.rss);
    point.heapUsed = Math.max(point.heapUsed ?? 0, record.heapUsed);
    point.loopP99 = Math.max(point.loopP99, record.loopP99);
  }
  for (const record of operations) {
    const point = pointOf(record.minute);
    if (point === undefined) continue;
    point.hasData = true;
    point.requests += record.requests;
    point.errors += record.errors;
    (point.latency ??= new LatencyHistogram()).addSparse(record.latency);
  }

  const series: Series = { range, stepSeconds: stepMinutes * 60, time: [], requests: [], errors: [], requestsPerSecond: [], errorRate: [], p50: [], p95: [], p99: [], rss: [], heapUsed: [], cpuPercent: [], eventLoopP99: [] };
  points.forEach((point, index) => {
    series.time.push((first + index * stepMinutes) * 60);
    const seconds = point.seconds > 0 ? point.seconds : stepMinutes * 60;
    const running = point.seconds > 0;
    series.requests.push(point.hasData ? point.requests : null);
    series.errors.push(point.hasData ? point.errors : null);
    series.requestsPerSecond.push(point.hasData ? point.requests / seconds : null);
    series.errorRate.push(point.requests > 0 ? (point.errors / point.requests) * 100 : null);
    series.p50.push(ms(point.latency?.quantile(0.5) ?? null));
    series.p95.push(ms(point.latency?.quantile(0.95) ?? null));
    series.p99.push(ms(point.latency?.quantile(0.99) ?? null));
    series.rss.push(point.rss);
    series.heapUsed.push(point.heapUsed);
    series.cpuPercent.push(running ? (point.cpuSeconds / point.seconds) * 100 : null);
    series.eventLoopP99.push(running ? point.loopP99 : null);
  });
  return series;
}
