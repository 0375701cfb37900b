// The dashboard's history (CONTRACT §8): per-minute records in an embedded SQLite file (better-sqlite3),
// written once a minute off the request path and pruned beyond `historyDays`. A file that cannot be used
// (unwritable, locked, full, not a database) never fails anything: the problem is logged once, the records
// wait in memory (the last day at most) and the write is tried again at the next minute. Writes never wait
// for a lock (busy timeout 0), so a locked file cannot stall the event loop.
import fs from 'node:fs';
import path from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { SetupError } from '../errors';
import { processTotals, type MinuteRecord, type ProcessMinuteRecord, type ProcessSpanRecord } from './minute-record';
import { SCHEMA, SCHEMA_VERSION } from './history-schema';
import { describeProblem } from './history-problems';
import { HistoryTables } from './history-tables';

type Database = BetterSqlite3.Database;

/** Records kept in memory while the file cannot be written: one day of minutes. */
const PENDING_MINUTES = 24 * 60;
const IN_MEMORY = ':memory:';

/** Loads better-sqlite3, an optional peer dependency of Tessera that the dashboard needs. */
export function loadSqlite(): typeof BetterSqlite3 {
  try {
    return require('better-sqlite3') as typeof BetterSqlite3;
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'MODULE_NOT_FOUND') throw new SetupError('dashboard: its history file needs the package better-sqlite3: npm install better-sqlite3');
    throw new SetupError(`dashboard: better-sqlite3 could not be loaded (${String(code ?? (error as Error).name)}): reinstall it for this Node.js version`);
  }
}

export interface HistoryStoreOptions {
  /** Where problems are reported, once each. */
  warn: (message: string) => void;
}

export class HistoryStore {
  /** The file as configured (shown by the dashboard and in messages). */
  readonly file: string;
  readonly #absolute: string;
  readonly #sqlite: typeof BetterSqlite3;
  readonly #warn: (message: string) => void;
  #open: HistoryTables | null = null;
  #db: Database | null = null;
  #problem: string | null = null;
  #pendingMinutes: MinuteRecord[] = [];
  #pendingProcesses: ProcessMinuteRecord[] = [];
  #closed = false;

  constructor(file: string, options: HistoryStoreOptions) {
    this.file = file;
    // SQLite's own name for a database that lives in memory only (history then ends with the process).
    this.#absolute = file === IN_MEMORY ? IN_MEMORY : path.resolve(file);
    this.#sqlite = loadSqlite();
    this.#warn = options.warn;
    this.#tryOpen();
  }

  /** `ok`, or why the file cannot be used right now (records then wait in memory). */
  get status(): string {
    return this.#problem ?? 'ok';
  }

  /** Adds records; what cannot be written now is kept and written with the next call. */
  append(operations: readonly MinuteRecord[], processes: readonly ProcessMinuteRecord[]): void {
    if (this.#closed) return;
    this.#pendingMinutes.push(...operations);
    this.#pendingProcesses.push(...processes);
    this.#flush();
  }

  /** Deletes every record of a minute before `minute`, in the file and in memory. */
  prune(minute: number): void {
    this.#pendingMinutes = this.#pendingMinutes.filter((record) => record.minute >= minute);
    this.#pendingProcesses = this.#pendingProcesses.filter((record) => record.minute >= minute);
    const open = this.#ready();
    if (open !== null) this.#attempt(() => open.prune(minute));
  }

  /**
   * The records of `operation` (or `*`) and the processes' totals from `minute` on, per minute (`span` 1) or per
   * rollup of `span` minutes (5 or 60): the file's, and those waiting in memory (per minute).
   */
  read(minute: number, operation: string, span: number): { operations: MinuteRecord[]; processes: ProcessSpanRecord[] } {
    const operations = this.#pendingMinutes.filter((record) => record.minute >= minute && record.operation === operation);
    const processes = processTotals(this.#pendingProcesses.filter((record) => record.minute >= minute));
    const open = this.#ready();
    if (open === null) return { operations, processes };
    try {
      const stored = open.read(minute, operation, span);
      operations.push(...stored.operations);
      processes.push(...stored.processes);
    } catch {
      // A file that cannot be read now shows what memory holds; writes report the file's problems.
    }
    return { operations, processes };
  }

  /** Writes what waits in memory (a last try) and closes the file. */
  close(): void {
    if (this.#closed) return;
    this.#flush();
    this.#closed = true;
    const db = this.#db;
    this.#open = null;
    this.#db = null;
    try {
      db?.close();
    } catch {
      // Closing releases the file whatever the outcome; nothing is left to save.
    }
  }

  #ready(): HistoryTables | null {
    if (this.#open === null && !this.#closed) this.#tryOpen();
    return this.#open;
  }

  #flush(): void {
    if (this.#pendingMinutes.length === 0 && this.#pendingProcesses.length === 0) return;
    const open = this.#ready();
    const minutes = this.#pendingMinutes;
    const processes = this.#pendingProcesses;
    const written = open !== null && this.#attempt(() => open.write(minutes, processes));
    if (written) {
      this.#pendingMinutes = [];
      this.#pendingProcesses = [];
    } else {
      this.#dropOverflow();
    }
  }

  /** What waits in memory for the file is bounded: the newest PENDING_MINUTES minutes. */
  #dropOverflow(): void {
    let newest = -Infinity;
    for (const record of this.#pendingMinutes) newest = Math.max(newest, record.minute);
    for (const record of this.#pendingProcesses) newest = Math.max(newest, record.minute);
    if (!Number.isFinite(newest)) return;
    const oldest = newest - PENDING_MINUTES;
    if (this.#pendingMinutes.some((record) => record.minute <= oldest)) this.#pendingMinutes = this.#pendingMinutes.filter((record) => record.minute > oldest);
    if (this.#pendingProcesses.some((record) => record.minute <= oldest)) this.#pendingProcesses = this.#pendingProcesses.filter((record) => record.minute > oldest);
  }

  /** Runs a file operation; a failure is reported (once per kind of problem) and answered false. */
  #attempt(operation: () => void): boolean {
    try {
      operation();
      this.#recovered();
      return true;
    } catch (error) {
      this.#failed(error);
      return false;
    }
  }

  #tryOpen(): void {
    let db: Database | null = null;
    try {
      if (this.#absolute !== IN_MEMORY) fs.mkdirSync(path.dirname(this.#absolute), { recursive: true });
      // timeout 0: a locked file answers SQLITE_BUSY at once instead of blocking the event loop.
      db = new this.#sqlite(this.#absolute, { timeout: 0 });
      db.pragma('journal_mode = WAL');
      db.pragma('synchronous = NORMAL');
      const version = db.pragma('user_version', { simple: true }) as number;
      if (version > SCHEMA_VERSION) throw Object.assign(new Error('newer schema'), { code: 'SQLITE_NOTADB' });
      for (const statement of SCHEMA) db.exec(statement);
      if (version !== SCHEMA_VERSION) db.pragma(`user_version = ${SCHEMA_VERSION}`);
      this.#open = new HistoryTables(db);
      this.#db = db;
      this.#recovered();
    } catch (error) {
      try {
        db?.close();
      } catch {
        // The handle is dropped either way.
      }
      this.#open = null;
      this.#db = null;
      this.#failed(error);
    }
  }

  #failed(error: unknown): void {
    const problem = describeProblem(error);
    if (problem === this.#problem) return;
    this.#problem = problem;
    this.#warn(`dashboard history file ${this.file} cannot be used: ${problem}; the dashboard keeps the last minutes in memory and tries again each minute`);
  }

  #recovered(): void {
    if (this.#problem === null) return;
    this.#problem = null;
    this.#warn(`dashboard history file ${this.file} is in use again`);
  }
}
