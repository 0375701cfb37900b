// CLI test entry for start-up failures: an in-memory SQLite table, plus what the test's environment asks for: a
// required secret (REQUIRED_SECRET names it) and the monitoring dashboard (DASHBOARD_PORT, DASHBOARD_HOST, HISTORY_DAYS).
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { crud, defineService, secret, type ServerOptions } from 'tessera-api';

const notes = sqliteTable('s_notes', { id: integer('id').primaryKey({ autoIncrement: true }), title: text('title').notNull() });
const client = new Database(':memory:');
client.exec('CREATE TABLE s_notes (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL)');

export const started = defineService({ name: 'started', db: drizzle(client) });
started.resource({ name: 'notes', table: notes, id: notes.id }).use(crud({ access: 'public', fields: { id: { read: true }, title: { read: true, create: true } } }));

// Declared, so createServer's boot check requires it.
if (process.env.REQUIRED_SECRET !== undefined) secret(process.env.REQUIRED_SECRET);

const env = process.env;
const options: ServerOptions = {
  title: 'Start-up',
  requestLogging: false,
  dashboard:
    env.DASHBOARD_PORT === undefined
      ? undefined
      : { port: Number(env.DASHBOARD_PORT), host: env.DASHBOARD_HOST, historyDays: env.HISTORY_DAYS === undefined ? undefined : Number(env.HISTORY_DAYS), historyFile: env.HISTORY_FILE },
};
export default options;
