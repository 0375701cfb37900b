import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { crud, defineService, type ServerOptions } from 'tessera-api';
import { notes } from './schema.js';

const db = drizzle(new Database(process.env.DATABASE_FILE ?? 'data.db'));
export const api = defineService({ name: 'api', db }); // registers in the global registry

export const notesResource = api.resource({ name: 'notes', table: notes, id: notes.id }).use(
  crud({
    access: 'public',
    fields: {
      id: { read: true, filter: ['eq', 'in'], sort: true },
      title: { read: true, create: true, update: true, filter: ['eq', 'contains'], sort: true },
      content: { read: true, create: true, update: true },
    },
  }),
);

export default { title: 'Notes' } satisfies ServerOptions; // server options for the CLI
