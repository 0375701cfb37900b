// A two-worker node:cluster application for cluster-telemetry.test.ts, written as `tessera start --workers 2`
// will run one: the primary collects the workers' telemetry and serves the dashboard; each worker serves the
// API on the shared port and reports to the primary. The primary prints one JSON line once all listen, and
// on SIGTERM closes the dashboard (writing its history) and the workers, then exits 0.
import cluster from 'node:cluster';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createServer, createTelemetryCollector, crud, defineService, startDashboard, startTelemetryReporter, type DashboardOptions } from 'tessera-api';

const WORKERS = 2;
const dashboard: DashboardOptions = { port: 0, historyFile: process.env.HISTORY_FILE ?? ':memory:', auth: { token: 'cluster-token', sessionSecret: 'cluster-session-secret-of-32-characters' } };

async function primary(): Promise<void> {
  const collector = createTelemetryCollector(dashboard, { title: 'Cluster' });
  const running = await startDashboard(collector, { warn: (message) => process.stderr.write(`${message}\n`) });
  let apiPort = 0;
  let listening = 0;
  for (let index = 0; index < WORKERS; index++) {
    cluster.fork().on('message', (message: { type?: string; port?: number }) => {
      if (message.type !== 'listening') return;
      apiPort = message.port!;
      if (++listening === WORKERS) process.stdout.write(`${JSON.stringify({ dashboard: running.url, api: `http://127.0.0.1:${apiPort}` })}\n`);
    });
  }
  process.once('SIGTERM', async () => {
    for (const worker of Object.values(cluster.workers ?? {})) worker?.send({ type: 'stop' });
    await Promise.all(Object.values(cluster.workers ?? {}).map((worker) => new Promise((resolve) => worker?.once('exit', resolve))));
    await running.close();
    collector.close();
    process.exit(0);
  });
}

function worker(): void {
  const notes = sqliteTable('notes', { id: integer('id').primaryKey(), title: text('title').notNull() });
  const client = new Database(':memory:');
  client.exec("CREATE TABLE notes (id INTEGER PRIMARY KEY, title TEXT NOT NULL); INSERT INTO notes VALUES (1, 'shared')");
  const service = defineService({ name: 'cluster', db: drizzle(client) });
  service.resource({ name: 'notes', table: notes, id: notes.id }).use(crud({ access: 'public', fields: { id: { read: true }, title: { read: true } } }));
  service.action('whoami', { handler: () => ({ pid: process.pid }) });

  const app = createServer({ requestLogging: false, docs: false, dashboard });
  const server = app.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send!({ type: 'listening', port: typeof address === 'object' && address !== null ? address.port : 0 });
  });
  const reporter = startTelemetryReporter(app);
  process.on('message', (message: { type?: string }) => {
    if (message.type !== 'stop') return;
    server.close(async () => {
      await reporter.stop(); // the last report goes out before the worker leaves
      process.disconnect();
    });
  });
}

if (cluster.isPrimary) void primary();
else worker();
