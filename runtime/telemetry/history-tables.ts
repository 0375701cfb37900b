// The SQL that reads and writes the dashboard's history file (its tables: history-schema.ts). Per-minute rows are
// the record (CONTRACT §8); rollups per 5 minutes and per hour are kept beside them as they are written, so a
// chart of a day or of `historyDays` reads one row per point instead of every minute (a week of minutes took
// half a second to merge, on the event loop the API shares).
import type BetterSqlite3 from 'better-sqlite3';
import { fromOperationRow, fromProcessRollupRow, fromProcessRow, ROLLUP_SPANS, toOperationRow, type OperationRow, type ProcessRollupRow, type ProcessRow } from './history-schema';
import { MinuteAccumulator, mergeProcessSpans, processTotals, type MinuteRecord, type ProcessMinuteRecord, type ProcessSpanRecord } from './minute-record';

type Database = BetterSqlite3.Database;
type Statement = BetterSqlite3.Statement;

/** The statements of an open history file, prepared once. */
export class HistoryTables {
  readonly #db: Database;
  readonly #insertMinute: Statement;
  readonly #insertProcess: Statement;
  readonly #selectMinutes: Statement;
  readonly #selectProcesses: Statement;
  readonly #selectRollup: Statement;
  readonly #upsertRollup: Statement;
  readonly #selectRollups: Statement;
  readonly #selectProcessRollup: Statement;
  readonly #upsertProcessRollup: Statement;
  readonly #selectProcessRollups: Statement;
  readonly #prunes: Statement[];

  constructor(db: Database) {
    this.#db = db;
    const columns = 'operation, requests, errors, server_errors, statuses, codes, latency_buckets, latency_count, latency_sum';
    const values = '@operation, @requests, @errors, @server_errors, @statuses, @codes, @latency_buckets, @latency_count, @latency_sum';
    this.#insertMinute = db.prepare(`INSERT INTO tessera_minutes (minute, ${columns}) VALUES (@minute, ${values})`);
    this.#insertProcess = db.prepare(
      'INSERT INTO tessera_process_minutes (minute, source, rss, heap_used, cpu_seconds, loop_p99, loop_max) VALUES (@minute, @source, @rss, @heap_used, @cpu_seconds, @loop_p99, @loop_max)',
    );
    this.#selectMinutes = db.prepare('SELECT * FROM tessera_minutes WHERE operation = ? AND minute >= ? ORDER BY minute');
    this.#selectProcesses = db.prepare('SELECT * FROM tessera_process_minutes WHERE minute >= ? ORDER BY minute');
    this.#selectRollup = db.prepare('SELECT * FROM tessera_rollups WHERE span = ? AND operation = ? AND start = ?');
    this.#upsertRollup = db.prepare(`INSERT OR REPLACE INTO tessera_rollups (span, start, ${columns}) VALUES (@span, @start, ${values})`);
    this.#selectRollups = db.prepare('SELECT * FROM tessera_rollups WHERE span = ? AND operation = ? AND start >= ? ORDER BY start');
    this.#selectProcessRollup = db.prepare('SELECT * FROM tessera_process_rollups WHERE span = ? AND start = ?');
    this.#upsertProcessRollup = db.prepare(
      'INSERT OR REPLACE INTO tessera_process_rollups (span, start, minutes, rss, heap_used, cpu_seconds, loop_p99) VALUES (@span, @start, @minutes, @rss, @heap_used, @cpu_seconds, @loop_p99)',
    );
    this.#selectProcessRollups = db.prepare('SELECT * FROM tessera_process_rollups WHERE span = ? AND start >= ? ORDER BY start');
    this.#prunes = [
      db.prepare('DELETE FROM tessera_minutes WHERE minute < @minute'),
      db.prepare('DELETE FROM tessera_process_minutes WHERE minute < @minute'),
      // A rollup goes once its last minute is older than the cut.
      db.prepare('DELETE FROM tessera_rollups WHERE start + span <= @minute'),
      db.prepare('DELETE FROM tessera_process_rollups WHERE start + span <= @minute'),
    ];
  }

  /** Adds minutes, and them to the rollups, in one transaction: the file holds all of it or none. */
  write(operations: readonly MinuteRecord[], processes: readonly ProcessMinuteRecord[]): void {
    this.#db.transaction(() => {
      for (const record of operations) this.#insertMinute.run({ minute: record.minute, ...toOperationRow(record) });
      for (const record of processes) {
        this.#insertProcess.run({ minute: record.minute, source: record.source, rss: record.rss, heap_used: record.heapUsed, cpu_seconds: record.cpuSeconds, loop_p99: record.loopP99, loop_max: record.loopMax });
      }
      for (const span of ROLLUP_SPANS) {
        this.#rollUpOperations(span, operations);
        this.#rollUpProcesses(span, processTotals(processes));
      }
    })();
  }

  /** Records of `operation` from `minute` on, per minute (span 1) or per rollup, and the processes' totals at the same grain. */
  read(minute: number, operation: string, span: number): { operations: MinuteRecord[]; processes: ProcessSpanRecord[] } {
    if (span === 1) {
      return {
        operations: (this.#selectMinutes.all(operation, minute) as OperationRow[]).map(fromOperationRow),
        processes: processTotals((this.#selectProcesses.all(minute) as ProcessRow[]).map(fromProcessRow)),
      };
    }
    return {
      operations: (this.#selectRollups.all(span, operation, minute) as OperationRow[]).map(fromOperationRow),
      processes: (this.#selectProcessRollups.all(span, minute) as ProcessRollupRow[]).map(fromProcessRollupRow),
    };
  }

  prune(minute: number): void {
    this.#db.transaction(() => {
      for (const prune of this.#prunes) prune.run({ minute });
    })();
  }

  #rollUpOperations(span: number, records: readonly MinuteRecord[]): void {
    const groups = new Map<string, { start: number; operation: string; accumulator: MinuteAccumulator }>();
    for (const record of records) {
      const start = Math.floor(record.minute / span) * span;
      const key = `${start} ${record.operation}`;
      let group = groups.get(key);
      if (group === undefined) {
        group = { start, operation: record.operation, accumulator: new MinuteAccumulator() };
        const stored = this.#selectRollup.get(span, record.operation, start) as OperationRow | undefined;
        if (stored !== undefined) group.accumulator.addRecord(fromOperationRow(stored));
        groups.set(key, group);
      }
      group.accumulator.addRecord(record);
    }
    for (const { start, operation, accumulator } of groups.values()) this.#upsertRollup.run({ span, start, ...toOperationRow(accumulator.toRecord(start, operation)) });
  }

  #rollUpProcesses(span: number, totals: readonly ProcessSpanRecord[]): void {
    const groups = new Map<number, ProcessSpanRecord>();
    for (const total of totals) {
      const start = Math.floor(total.start / span) * span;
      let group = groups.get(start);
      if (group === undefined) {
        const stored = this.#selectProcessRollup.get(span, start) as ProcessRollupRow | undefined;
        group = stored === undefined ? { start, minutes: 0, rss: 0, heapUsed: 0, cpuSeconds: 0, loopP99: 0 } : fromProcessRollupRow(stored);
      }
      groups.set(start, mergeProcessSpans(start, group, total));
    }
    for (const group of groups.values()) {
      this.#upsertProcessRollup.run({ span, start: group.start, minutes: Math.min(group.minutes, span), rss: group.rss, heap_used: group.heapUsed, cpu_seconds: group.cpuSeconds, loop_p99: group.loopP99 });
    }
  }
}
