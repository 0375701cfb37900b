// The tables: Drizzle ORM definitions, which drizzle-kit turns into the database schema (npm run db:push, db:generate).
import { randomUUID } from 'node:crypto';
import { sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const notes = sqliteTable('notes', {
  id: text('id').primaryKey().$defaultFn(() => randomUUID()),
  title: text('title').notNull(),
  content: text('content'),
  internal: text('internal'), // not in the field policy: hidden from reads, writes, filters and sorting
});
