// An entry whose table was never created (no migration ran): start must refuse to listen, naming it.
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { crud, defineService } from 'tessera-api';

const notes = sqliteTable('notes', { id: integer('id').primaryKey(), title: text('title').notNull() });
const blog = defineService({ name: 'blog', db: drizzle(new Database(':memory:')) });
blog.resource({ name: 'notes', table: notes, id: notes.id }).use(crud({ access: 'public', fields: { id: { read: true } } }));
