// What a running dashboard does in the background, off every request path: each second it brings the
// aggregate up to date, and when a minute ends it writes the finished minutes to the history file and
// prunes what is older than `historyDays`. On close it writes the minute in progress too, so a restart
// loses nothing but the requests answered after it.
import { HistoryStore } from '../telemetry/history-store';
import { buildSeries, rangeShape, rangeStartMinute, type Series, type SeriesRange } from '../telemetry/history-series';
import { ALL_OPERATIONS, processTotals } from '../telemetry/minute-record';
import type { TelemetrySource } from '../telemetry/telemetry-source';

const TICK_MS = 1000;
const MINUTES_PER_DAY = 24 * 60;

export class DashboardHistory {
  readonly store: HistoryStore;
  readonly #source: TelemetrySource;
  readonly #now: () => number;
  #timer: NodeJS.Timeout | null = null;
  #minute: number;

  constructor(source: TelemetrySource, warn: (message: string) => void, now: () => number = Date.now) {
    this.#source = source;
    this.#now = now;
    this.#minute = Math.floor(now() / 60_000);
    this.store = new HistoryStore(source.options.historyFile, { warn });
  }

  start(): void {
    this.#prune();
    this.#timer = setInterval(() => this.tick(), TICK_MS);
    this.#timer.unref(); // telemetry never keeps a process alive
  }

  /** One second's work: refresh, and at a new minute write the finished ones and prune. */
  tick(): void {
    this.#source.refresh();
    const minute = Math.floor(this.#now() / 60_000);
    if (minute === this.#minute) return;
    this.#minute = minute;
    const finished = this.#source.aggregate.takeMinutesBefore(minute);
    this.store.append(finished.operations, finished.processes);
    this.#prune();
  }

  /** Chart points of a range, for all operations or one: the file's (per minute, or its rollups) and the minutes not written yet. */
  series(range: SeriesRange, operation: string = ALL_OPERATIONS): Series {
    const now = this.#now();
    const { historyDays } = this.#source.options;
    const from = rangeStartMinute(range, historyDays, now);
    const stored = this.store.read(from, operation, rangeShape(range, historyDays).stepMinutes);
    const open = this.#source.aggregate.openMinutes();
    const operations = [...stored.operations, ...open.operations.filter((record) => record.operation === operation && record.minute >= from)];
    const processes = [...stored.processes, ...processTotals(open.processes.filter((record) => record.minute >= from))];
    return buildSeries(range, historyDays, now, operations, processes);
  }

  /** Writes every minute, the current one included, and closes the file. */
  close(): void {
    if (this.#timer !== null) clearInterval(this.#timer);
    this.#timer = null;
    this.#source.refresh();
    const all = this.#source.aggregate.takeMinutesBefore(Infinity);
    this.store.append(all.operations, all.processes);
    this.store.close();
  }

  #prune(): void {
    this.store.prune(Math.floor(this.#now() / 60_000) - this.#source.options.historyDays * MINUTES_PER_DAY);
  }
}
