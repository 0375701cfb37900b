// Everything the processes reported, merged: totals per operation and method since the start (what
// /metrics counts), the last 60 seconds (the live tiles), the minutes not yet written to the history, and
// the latest process and database figures of each process. One process feeds it its own reports; a
// cluster primary feeds it its workers'. Merging is addition, so the order reports arrive in does not matter.
import { LatencyHistogram } from './latency-histogram';
import { LiveWindow, type WindowTotals } from './live-window';
import { addCounts, ALL_OPERATIONS, MinuteAccumulator, type MinuteRecord, type ProcessMinuteRecord } from './minute-record';
import type { DatabaseSample, OperationDelta, ProcessSample, TelemetryReport } from './telemetry-report';

/** A process that has not reported for this long is gone (a worker that died). */
const SOURCE_TTL_MS = 15_000;
const MS_PER_MINUTE = 60_000;

export interface OperationTotals {
  readonly operation: string;
  readonly method: string;
  requests: number;
  readonly statuses: Record<string, number>;
  readonly codes: Record<string, number>;
  readonly latency: LatencyHistogram;
  lastError: { code: string; at: number } | null;
}

interface SourceState {
  sample: ProcessSample;
  at: number;
  inFlight: number;
  databases: readonly DatabaseSample[];
  /** CPU use between the last two reports, percent of one core; null after the first. */
  cpuPercent: number | null;
}

interface ProcessMinute {
  rss: number;
  heapUsed: number;
  cpuMicros: number;
  loopP99: number;
  loopMax: number;
}

export class TelemetryAggregate {
  readonly startedAt: number;
  readonly #now: () => number;
  readonly #totals = new Map<string, OperationTotals>();
  readonly #live = new LiveWindow();
  /** minute → operation (and `*`) → what arrived for it, until the history takes it. */
  readonly #minutes = new Map<number, Map<string, MinuteAccumulator>>();
  /** minute → source → its process figures. */
  readonly #processMinutes = new Map<number, Map<string, ProcessMinute>>();
  readonly #sources = new Map<string, SourceState>();

  constructor(now: () => number = Date.now) {
    this.#now = now;
    this.startedAt = now();
  }

  add(report: TelemetryReport): void {
    const minute = Math.floor(report.at / MS_PER_MINUTE);
    const tick = this.#live.tick(Math.floor(report.at / 1000));
    for (const delta of report.operations) {
      this.#addTotals(delta);
      this.#minute(minute, delta.operation).add(delta.statuses, delta.codes, delta.latency);
      this.#minute(minute, ALL_OPERATIONS).add(delta.statuses, delta.codes, delta.latency);
      tick.requests += delta.requests;
      for (const status in delta.statuses) {
        if (Number(status) >= 400) tick.errors += delta.statuses[status];
        if (Number(status) >= 500) tick.serverErrors += delta.statuses[status];
      }
      tick.latency.addSparse(delta.latency);
    }
    this.#addSource(report, minute);
  }

  /** Totals per operation and method since the start, sorted by operation then method. */
  totals(): OperationTotals[] {
    return [...this.#totals.values()].sort((a, b) => compare(a.operation, b.operation) || compare(a.method, b.method));
  }

  /** The last WINDOW_SECONDS (fewer just after the start): requests, errors and the latency histogram. */
  window(): WindowTotals {
    return this.#live.totals(this.#now(), this.startedAt);
  }

  /** The latest figures of each live process, by pid. */
  processes(): { sample: ProcessSample; cpuPercent: number | null; inFlight: number }[] {
    return this.#liveSources().map(({ sample, cpuPercent, inFlight }) => ({ sample, cpuPercent, inFlight }));
  }

  inFlight(): number {
    return this.#liveSources().reduce((sum, source) => sum + source.inFlight, 0);
  }

  /** Each database's statement cache, added up over the live processes, in name order. */
  databases(): DatabaseSample[] {
    const byName = new Map<string, { name: string; dialect: string; statementCache: { size: number; capacity: number; hits: number; misses: number; evictions: number } }>();
    for (const source of this.#liveSources()) {
      for (const database of source.databases) {
        const merged = byName.get(database.name);
        if (merged === undefined) {
          byName.set(database.name, { name: database.name, dialect: database.dialect, statementCache: { ...database.statementCache } });
          continue;
        }
        const cache = merged.statementCache;
        cache.size += database.statementCache.size;
        cache.capacity += database.statementCache.capacity;
        cache.hits += database.statementCache.hits;
        cache.misses += database.statementCache.misses;
        cache.evictions += database.statementCache.evictions;
      }
    }
    return [...byName.values()].sort((a, b) => compare(a.name, b.name));
  }

  /** Removes and returns the minutes before `minute` (those complete), for the history file. */
  takeMinutesBefore(minute: number): { operations: MinuteRecord[]; processes: ProcessMinuteRecord[] } {
    const taken = this.#minuteRecords((at) => at < minute);
    for (const at of [...this.#minutes.keys()]) if (at < minute) this.#minutes.delete(at);
    for (const at of [...this.#processMinutes.keys()]) if (at < minute) this.#processMinutes.delete(at);
    return taken;
  }

  /** The minutes not taken yet, the current one included (copies). */
  openMinutes(): { operations: MinuteRecord[]; processes: ProcessMinuteRecord[] } {
    return this.#minuteRecords(() => true);
  }

  #minuteRecords(include: (minute: number) => boolean): { operations: MinuteRecord[]; processes: ProcessMinuteRecord[] } {
    const operations: MinuteRecord[] = [];
    const processes: ProcessMinuteRecord[] = [];
    for (const [minute, byOperation] of this.#minutes) {
      if (include(minute)) for (const [operation, accumulator] of byOperation) operations.push(accumulator.toRecord(minute, operation));
    }
    for (const [minute, bySource] of this.#processMinutes) {
      if (!include(minute)) continue;
      for (const [source, figures] of bySource) {
        processes.push({ minute, source, rss: figures.rss, heapUsed: figures.heapUsed, cpuSeconds: figures.cpuMicros / 1e6, loopP99: figures.loopP99, loopMax: figures.loopMax });
      }
    }
    return { operations, processes };
  }

  #addTotals(delta: OperationDelta): void {
    const key = `${delta.operation} ${delta.method}`;
    let totals = this.#totals.get(key);
    if (totals === undefined) {
      totals = { operation: delta.operation, method: delta.method, requests: 0, statuses: {}, codes: {}, latency: new LatencyHistogram(), lastError: null };
      this.#totals.set(key, totals);
    }
    totals.requests += delta.requests;
    addCounts(totals.statuses, delta.statuses);
    addCounts(totals.codes, delta.codes);
    totals.latency.addSparse(delta.latency);
    if (delta.lastError !== null && (totals.lastError === null || delta.lastError.at >= totals.lastError.at)) totals.lastError = { ...delta.lastError };
  }

  #minute(minute: number, operation: string): MinuteAccumulator {
    let byOperation = this.#minutes.get(minute);
    if (byOperation === undefined) this.#minutes.set(minute, (byOperation = new Map()));
    let accumulator = byOperation.get(operation);
    if (accumulator === undefined) byOperation.set(operation, (accumulator = new MinuteAccumulator()));
    return accumulator;
  }

  #addSource(report: TelemetryReport, minute: number): void {
    const previous = this.#sources.get(report.source);
    const sample = report.process;
    const cpuMicros = previous === undefined ? 0 : Math.max(0, sample.cpu.user + sample.cpu.system - previous.sample.cpu.user - previous.sample.cpu.system);
    const elapsedMs = previous === undefined ? 0 : report.at - previous.at;
    const cpuPercent = elapsedMs > 0 ? (cpuMicros / 1000 / elapsedMs) * 100 : (previous?.cpuPercent ?? null);
    this.#sources.set(report.source, { sample, at: report.at, inFlight: report.inFlight, databases: report.databases, cpuPercent });

    let bySource = this.#processMinutes.get(minute);
    if (bySource === undefined) this.#processMinutes.set(minute, (bySource = new Map()));
    const figures = bySource.get(report.source) ?? { rss: 0, heapUsed: 0, cpuMicros: 0, loopP99: 0, loopMax: 0 };
    figures.rss = sample.memory.rss;
    figures.heapUsed = sample.memory.heapUsed;
    figures.cpuMicros += cpuMicros;
    figures.loopP99 = Math.max(figures.loopP99, sample.eventLoop.p99);
    figures.loopMax = Math.max(figures.loopMax, sample.eventLoop.max);
    bySource.set(report.source, figures);
  }

  #liveSources(): SourceState[] {
    const oldest = this.#now() - SOURCE_TTL_MS;
    for (const [source, state] of this.#sources) if (state.at < oldest) this.#sources.delete(source);
    return [...this.#sources.values()].sort((a, b) => a.sample.pid - b.sample.pid);
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
