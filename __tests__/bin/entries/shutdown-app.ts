// Entry of the graceful-shutdown and workers tests: public notes in a SQLite file every worker shares
// (SHUTDOWN_DATABASE, WAL), a `slow` action that answers after `ms`, and `pid`, which names the process
// that answered. SHUTDOWN_GRACE sets shutdownGracePeriod.
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { crud, defineService, type ServerOptions } from 'tessera-api';

const notes = sqliteTable('s_notes', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  title: text('title').notNull(),
});

const file = process.env.SHUTDOWN_DATABASE;
if (file === undefined || file === '') throw new Error('SHUTDOWN_DATABASE must name the SQLite file');
const client = new Database(file, { timeout: 5000 });
client.pragma('journal_mode = WAL');
client.exec('CREATE TABLE IF NOT EXISTS s_notes (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL)');

const shop = defineService({ name: 'shop', db: drizzle(client) });
shop.resource({ name: 'notes', table: notes, id: notes.id }).use(
  crud({ access: 'public', fields: { id: { read: true, sort: true }, title: { read: true, create: true, filter: ['eq'] } } }),
);
shop.action('slow', {
  input: { type: 'object', properties: { ms: { type: 'integer', minimum: 0 } }, required: ['ms'], additionalProperties: false },
  handler: async ({ input }) => {
    await new Promise((resolve) => setTimeout(resolve, input.ms as number));
    return { slept: input.ms };
  },
});
shop.action('pid', { handler: () => ({ pid: process.pid }) });

const grace = process.env.SHUTDOWN_GRACE;
export default { requestLogging: false, ...(grace === undefined ? {} : { shutdownGracePeriod: Number(grace) }) } satisfies ServerOptions;
