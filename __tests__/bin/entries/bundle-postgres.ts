// Bundle test entry on PostgreSQL; the test creates table b_notes before it starts the bundle.
import { drizzle } from 'drizzle-orm/node-postgres';
import { pgTable, serial, text, varchar } from 'drizzle-orm/pg-core';
import { Pool } from 'pg';
import { defineBundleApp } from './bundle-app';

const notes = pgTable('b_notes', {
  id: serial('id').primaryKey(),
  title: varchar('title', { length: 200 }).notNull(),
  content: text('content'),
});

const url = process.env.TESSERA_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const pool = new Pool({ connectionString: url, max: 2 });

export default defineBundleApp(drizzle(pool), notes);
