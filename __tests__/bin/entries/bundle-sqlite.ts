// Bundle test entry on SQLite: an in-memory database created when the entry loads.
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { defineBundleApp } from './bundle-app';

const notes = sqliteTable('b_notes', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  title: text('title').notNull(),
  content: text('content'),
});

const client = new Database(':memory:');
client.exec('CREATE TABLE b_notes (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, content TEXT)');

export default defineBundleApp(drizzle(client), notes);
