// The tables of the dashboard's history file (CONTRACT §8): minutes per operation and per process, and their
// rollups per 5 minutes and per hour; and how a row maps to the records the dashboard reads.
import type { MinuteRecord, ProcessMinuteRecord, ProcessSpanRecord } from './minute-record';

export const SCHEMA_VERSION = 1;
/** The rollups kept beside the minutes, in minutes per row: the day's chart points and the history's. */
export const ROLLUP_SPANS = [5, 60] as const;

const OPERATION_COLUMNS = `operation TEXT NOT NULL,
    requests INTEGER NOT NULL,
    errors INTEGER NOT NULL,
    server_errors INTEGER NOT NULL,
    statuses TEXT NOT NULL,
    codes TEXT NOT NULL,
    latency_buckets TEXT NOT NULL,
    latency_count INTEGER NOT NULL,
    latency_sum REAL NOT NULL`;

export const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS tessera_minutes (
    minute INTEGER NOT NULL,
    ${OPERATION_COLUMNS}
  )`,
  'CREATE INDEX IF NOT EXISTS tessera_minutes_by_operation ON tessera_minutes (operation, minute)',
  'CREATE INDEX IF NOT EXISTS tessera_minutes_by_minute ON tessera_minutes (minute)',
  `CREATE TABLE IF NOT EXISTS tessera_process_minutes (
    minute INTEGER NOT NULL,
    source TEXT NOT NULL,
    rss INTEGER NOT NULL,
    heap_used INTEGER NOT NULL,
    cpu_seconds REAL NOT NULL,
    loop_p99 REAL NOT NULL,
    loop_max REAL NOT NULL
  )`,
  'CREATE INDEX IF NOT EXISTS tessera_process_minutes_by_minute ON tessera_process_minutes (minute)',
  `CREATE TABLE IF NOT EXISTS tessera_rollups (
    span INTEGER NOT NULL,
    start INTEGER NOT NULL,
    ${OPERATION_COLUMNS},
    PRIMARY KEY (span, operation, start)
  )`,
  `CREATE TABLE IF NOT EXISTS tessera_process_rollups (
    span INTEGER NOT NULL,
    start INTEGER NOT NULL,
    minutes INTEGER NOT NULL,
    rss INTEGER NOT NULL,
    heap_used INTEGER NOT NULL,
    cpu_seconds REAL NOT NULL,
    loop_p99 REAL NOT NULL,
    PRIMARY KEY (span, start)
  )`,
];

export interface OperationRow {
  minute?: number;
  start?: number;
  operation: string;
  requests: number;
  errors: number;
  server_errors: number;
  statuses: string;
  codes: string;
  latency_buckets: string;
  latency_count: number;
  latency_sum: number;
}

export interface ProcessRow {
  minute: number;
  source: string;
  rss: number;
  heap_used: number;
  cpu_seconds: number;
  loop_p99: number;
  loop_max: number;
}

export interface ProcessRollupRow {
  start: number;
  minutes: number;
  rss: number;
  heap_used: number;
  cpu_seconds: number;
  loop_p99: number;
}

export function toOperationRow(record: MinuteRecord) {
  return {
    operation: record.operation,
    requests: record.requests,
    errors: record.errors,
    server_errors: record.serverErrors,
    statuses: JSON.stringify(record.statuses),
    codes: JSON.stringify(record.codes),
    latency_buckets: JSON.stringify(record.latency.buckets),
    latency_count: record.latency.count,
    latency_sum: record.latency.sum,
  };
}

export function fromOperationRow(row: OperationRow): MinuteRecord {
  return {
    minute: row.minute ?? row.start!,
    operation: row.operation,
    requests: row.requests,
    errors: row.errors,
    serverErrors: row.server_errors,
    statuses: JSON.parse(row.statuses) as Record<string, number>,
    codes: JSON.parse(row.codes) as Record<string, number>,
    latency: { buckets: JSON.parse(row.latency_buckets) as number[], count: row.latency_count, sum: row.latency_sum },
  };
}

export function fromProcessRow(row: ProcessRow): ProcessMinuteRecord {
  return { minute: row.minute, source: row.source, rss: row.rss, heapUsed: row.heap_used, cpuSeconds: row.cpu_seconds, loopP99: row.loop_p99, loopMax: row.loop_max };
}

export function fromProcessRollupRow(row: ProcessRollupRow): ProcessSpanRecord {
  return { start: row.start, minutes: row.minutes, rss: row.rss, heapUsed: row.heap_used, cpuSeconds: row.cpu_seconds, loopP99: row.loop_p99 };
}
