// CLI test entry with the monitoring dashboard: an in-memory SQLite notes table, and the dashboard's port,
// host, history file and token (a secret reference) from the environment the test gives the process.
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { crud, defineService, secret, type ServerOptions } from 'tessera-api';

const notes = sqliteTable('d_notes', { id: integer('id').primaryKey({ autoIncrement: true }), title: text('title').notNull() });
const client = new Database(':memory:');
client.exec("CREATE TABLE d_notes (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL); INSERT INTO d_notes (title) VALUES ('first')");

export const watched = defineService({ name: 'watched', db: drizzle(client) });
watched.resource({ name: 'notes', table: notes, id: notes.id }).use(crud({ access: 'public', fields: { id: { read: true }, title: { read: true, create: true } } }));

const options: ServerOptions = {
  title: 'Watched',
  requestLogging: false,
  dashboard: {
    port: Number(process.env.DASHBOARD_PORT),
    host: process.env.DASHBOARD_HOST,
    historyFile: process.env.HISTORY_FILE,
    auth: process.env.DASHBOARD_TOKEN === undefined ? undefined : { token: secret('DASHBOARD_TOKEN') },
  },
};
export default options;
