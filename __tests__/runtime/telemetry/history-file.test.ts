// The dashboard's history file (CONTRACT §8), a real SQLite file: per-minute records that survive a restart,
// pruning beyond historyDays, and a file that cannot be used (under a non-folder, locked by another
// connection, not a database) logging once while requests are answered as ever and the minutes wait in memory.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { createServer } from 'tessera-api';
import { DashboardHistory } from '../../../runtime/dashboard/dashboard-history';
import { telemetryOf } from '../../../runtime/telemetry/app-telemetry';
import { HistoryStore } from '../../../runtime/telemetry/history-store';
import { LatencyHistogram } from '../../../runtime/telemetry/latency-histogram';
import { MinuteAccumulator, type MinuteRecord } from '../../../runtime/telemetry/minute-record';
import { dashboardJson, useDashboardTestbed } from '../../helpers/dashboard-testbed';
import { listen, type TestServer } from '../../helpers/test-app';

const MINUTE = 60_000;

async function getNotes(server: TestServer, count: number): Promise<void> {
  const created = await server.fetch('/api/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"kept"}' });
  const { id } = (await created.json()) as { id: string };
  for (let index = 0; index < count; index++) await (await server.fetch(`/api/notes/${id}`)).text();
}

function record(minute: number, operation: string, requests: number): MinuteRecord {
  const latency = new LatencyHistogram();
  for (let index = 0; index < requests; index++) latency.record(1000);
  const accumulator = new MinuteAccumulator();
  accumulator.add({ 200: requests }, {}, latency.toSparse());
  return accumulator.toRecord(minute, operation);
}

function storedMinutes(file: string): { minute: number; operation: string; requests: number }[] {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT minute, operation, requests FROM tessera_minutes ORDER BY minute, operation').all() as { minute: number; operation: string; requests: number }[];
  } finally {
    db.close();
  }
}

function sum(values: (number | null)[]): number {
  return values.reduce<number>((total, value) => total + (value ?? 0), 0);
}

describe('the dashboard history file', () => {
  const testbed = useDashboardTestbed();

  it('survives a restart: the minutes before it are in the charts after it', async () => {
    const historyFile = testbed.historyFile();
    const first = await testbed.startWithDashboard({ historyFile });
    await getNotes(first.server, 6);
    await first.dashboard.close(); // writes the minute in progress
    await first.server.close();

    const second = await testbed.startWithDashboard({ historyFile });
    await getNotes(second.server, 2);
    const all = await dashboardJson(second.dashboard, '/api/series?range=hour');
    expect(all.time).toHaveLength(60);
    expect(sum(all.requests)).toBe(7 + 3); // 1 create + 6 gets before the restart, 1 + 2 after
    // The day's 5-minute points and the history's hours read the rollups written with the minutes: the same counts.
    for (const range of ['day', 'history']) expect([range, sum((await dashboardJson(second.dashboard, `/api/series?range=${range}`)).requests)]).toEqual([range, 10]);
    const gets = await dashboardJson(second.dashboard, '/api/series?range=hour&operation=shop.notes.get');
    expect(gets.operation).toBe('shop.notes.get');
    expect(sum(gets.requests)).toBe(8);
    expect(storedMinutes(historyFile).filter((row) => row.operation === 'shop.notes.get').reduce((total, row) => total + row.requests, 0)).toBe(6);
    const summary = await dashboardJson(second.dashboard, '/api/summary');
    expect(summary.history).toEqual({ file: historyFile, status: 'ok', historyDays: 7 });
  });

  it('prunes what is older than historyDays, at start and at every new minute', async () => {
    const historyFile = testbed.historyFile();
    const now = Math.floor(Date.now() / MINUTE);
    const day = 24 * 60;
    const seeded = new HistoryStore(historyFile, { warn: () => {} });
    seeded.append([record(now - 8 * day, '*', 80), record(now - 3 * day - 1, '*', 30), record(now - 2 * day - 30, '*', 20), record(now - 60, '*', 5)], []);
    seeded.close();

    const { dashboard } = await testbed.startWithDashboard({ historyFile, historyDays: 3 });
    expect(storedMinutes(historyFile).map((row) => row.minute)).toEqual([now - 2 * day - 30, now - 60]);
    const history = await dashboardJson(dashboard, '/api/series?range=history');
    expect(history.time).toHaveLength(3 * 24);
    expect(history.stepSeconds).toBe(3600);
    expect(sum(history.requests)).toBe(25);
    await dashboard.close();

    // A day later (the clock moved on), the next minute's pruning leaves only what is younger than one day.
    const app = createServer({ requestLogging: false, dashboard: { historyFile, historyDays: 1 } });
    let offset = 0.5 * day * MINUTE;
    const later = new DashboardHistory(telemetryOf(app)!, () => {}, () => Date.now() + offset);
    later.tick();
    offset += MINUTE;
    later.tick();
    expect(storedMinutes(historyFile).map((row) => row.minute)).toEqual([now - 60]);
    later.close();
  });

  it('keeps answering when the file cannot be created, logs once and keeps the minutes in memory', async () => {
    const folder = path.dirname(testbed.historyFile());
    fs.writeFileSync(path.join(folder, 'a-file'), 'not a folder');
    const historyFile = path.join(folder, 'a-file', 'history.db');
    const { server, dashboard, warnings } = await testbed.startWithDashboard({ historyFile });
    await getNotes(server, 3);
    // Node's recursive mkdir answers EEXIST or ENOTDIR for it, depending on the version.
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      new RegExp(`^dashboard history file ${historyFile} cannot be used: a file stands where its folder should be \\((EEXIST|ENOTDIR)\\); the dashboard keeps the last minutes in memory and tries again each minute$`),
    );
    const summary = await dashboardJson(dashboard, '/api/summary');
    expect(summary.history.status).toMatch(/^a file stands where its folder should be/);
    expect(summary.operations.find((operation: { operation: string }) => operation.operation === 'shop.notes.get').requests).toBe(3);
    expect(sum((await dashboardJson(dashboard, '/api/series?range=hour')).requests)).toBe(4);

    // Minutes go by: still one line, and the finished minutes are still in the charts.
    let offset = 0;
    const app = createServer({ requestLogging: false, dashboard: { historyFile } });
    const history = new DashboardHistory(telemetryOf(app)!, (message) => warnings.push(message), () => Date.now() + offset);
    for (offset = MINUTE; offset <= 3 * MINUTE; offset += MINUTE) history.tick();
    expect(warnings).toHaveLength(2); // the first dashboard's line, and this one's
    expect(history.series('hour').time).toHaveLength(60);
    history.close();
  });

  it('keeps answering while another connection locks the file, and writes the waiting minutes once it is free', async () => {
    const historyFile = testbed.historyFile();
    const server = await listen({ dashboard: { historyFile } });
    const warnings: string[] = [];
    let offset = 0;
    const history = new DashboardHistory(telemetryOf(server.app)!, (message) => warnings.push(message), () => Date.now() + offset);
    const locker = new Database(historyFile);
    try {
      locker.exec('BEGIN EXCLUSIVE');
      await getNotes(server, 4);
      offset = 2 * MINUTE;
      history.tick(); // a new minute: the write meets the lock at once (no busy wait)
      history.tick();
      expect(warnings).toEqual([`dashboard history file ${historyFile} cannot be used: locked by another connection (SQLITE_BUSY); the dashboard keeps the last minutes in memory and tries again each minute`]);
      expect(history.store.status).toBe('locked by another connection (SQLITE_BUSY)');
      expect(sum(history.series('hour', 'shop.notes.get').requests)).toBe(4);
      expect((await server.fetch('/_health')).status).toBe(200);
      locker.exec('COMMIT');

      await getNotes(server, 1);
      offset = 3 * MINUTE;
      history.tick();
      expect(warnings[1]).toBe(`dashboard history file ${historyFile} is in use again`);
      expect(history.store.status).toBe('ok');
    } finally {
      locker.close();
      history.close();
      await server.close();
    }
    expect(storedMinutes(historyFile).filter((row) => row.operation === 'shop.notes.get').reduce((total, row) => total + row.requests, 0)).toBe(5);
  });

  it('leaves a file that is not a SQLite database alone, and says so once', async () => {
    const historyFile = testbed.historyFile();
    fs.writeFileSync(historyFile, 'these are someone else\'s notes, not a database\n'.repeat(200));
    const { server, dashboard, warnings } = await testbed.startWithDashboard({ historyFile });
    await getNotes(server, 1);
    await dashboard.close();
    expect(warnings).toEqual([`dashboard history file ${historyFile} cannot be used: not a SQLite database (SQLITE_NOTADB); the dashboard keeps the last minutes in memory and tries again each minute`]);
    expect(fs.readFileSync(historyFile, 'utf8')).toBe('these are someone else\'s notes, not a database\n'.repeat(200));
  });
});
