// Entry of the cluster keys test: public notes on a SQLite file (NOTES_DATABASE) that every worker opens, with
// cursors, and a `worker` action naming the process that answered and whether it can see the primary's key.
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { crud, defineService, type ServerOptions } from 'tessera-api';

const notes = sqliteTable('notes', { id: integer('id').primaryKey(), title: text('title').notNull() });

const sqlite = new Database(process.env.NOTES_DATABASE!);
sqlite.exec('CREATE TABLE IF NOT EXISTS notes (id integer PRIMARY KEY, title text NOT NULL)');
sqlite.exec("INSERT OR IGNORE INTO notes VALUES (1, 'one'), (2, 'two'), (3, 'three'), (4, 'four'), (5, 'five')");

const shop = defineService({ name: 'shop', db: drizzle(sqlite) });
shop
  .resource({ name: 'notes', table: notes, id: notes.id })
  .use(crud({ access: 'public', fields: { id: { read: true, sort: true }, title: { read: true, update: true } } }));
shop.action('worker', { handler: () => ({ pid: process.pid, seesKey: Object.keys(process.env).some((name) => name.startsWith('TESSERA_CLUSTER')) }) });

export default { requestLogging: false } satisfies ServerOptions;
