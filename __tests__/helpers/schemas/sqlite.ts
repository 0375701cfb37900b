// The test tables on SQLite. The same logical tables exist for mysql and postgres beside this file.
// Ids and timestamps of the default functions are deterministic (test-defaults.ts), so answers repeat exactly.
import { blob, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { nextTestDate, nextTestUuid } from './test-defaults';

export const categories = sqliteTable('t_categories', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull(),
});

export const notes = sqliteTable('t_notes', {
  id: text('id').primaryKey().$defaultFn(() => nextTestUuid()),
  title: text('title').notNull(),
  content: text('content'),
  internal: text('internal'),
});

export const items = sqliteTable('t_items', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  name: text('name').notNull().unique(),
  price: integer('price'),
  rating: real('rating'),
  active: integer('active', { mode: 'boolean' }).notNull().default(true),
  createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => nextTestDate()),
  ownerId: text('owner_id').notNull(),
  secret: text('secret'),
  email: text('email'),
  categoryId: integer('category_id').references(() => categories.id),
});

/** Value types whose JSON form differs from the driver's: bigint (decimal string) and binary (base64). */
export const readings = sqliteTable('t_readings', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  serial: blob('serial', { mode: 'bigint' }).notNull(),
  payload: blob('payload', { mode: 'buffer' }),
});

/** A key the client supplies (no auto-increment, no `$defaultFn`) and a number many requests write: the statement cache serves it. */
export const counters = sqliteTable('t_counters', {
  code: text('code').primaryKey(),
  n: integer('n').notNull(),
  label: text('label'),
});

/** Column kinds whose driver values Drizzle maps (dates, booleans, JSON, reals): no application default, so the compiled handlers run them without Drizzle. */
export const kinds = sqliteTable('t_kinds', {
  id: integer('id').primaryKey({ autoIncrement: true }),
  label: text('label').notNull(),
  takenAt: integer('taken_at', { mode: 'timestamp_ms' }),
  seenAt: integer('seen_at', { mode: 'timestamp' }),
  valid: integer('valid', { mode: 'boolean' }),
  ratio: real('ratio'),
  meta: text('meta', { mode: 'json' }),
});

export const DDL = [
  'DROP TABLE IF EXISTS t_kinds',
  'CREATE TABLE t_kinds (id INTEGER PRIMARY KEY AUTOINCREMENT, label TEXT NOT NULL, taken_at INTEGER, seen_at INTEGER, valid INTEGER, ratio REAL, meta TEXT)',
  'DROP TABLE IF EXISTS t_counters',
  'CREATE TABLE t_counters (code TEXT PRIMARY KEY, n INTEGER NOT NULL, label TEXT)',
  'DROP TABLE IF EXISTS t_readings',
  'CREATE TABLE t_readings (id INTEGER PRIMARY KEY AUTOINCREMENT, serial BLOB NOT NULL, payload BLOB)',
  'DROP TABLE IF EXISTS t_items',
  'DROP TABLE IF EXISTS t_notes',
  'DROP TABLE IF EXISTS t_categories',
  'CREATE TABLE t_categories (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL)',
  'CREATE TABLE t_notes (id TEXT PRIMARY KEY, title TEXT NOT NULL, content TEXT, internal TEXT)',
  `CREATE TABLE t_items (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL UNIQUE,
    price INTEGER,
    rating REAL,
    active INTEGER NOT NULL DEFAULT 1,
    created_at INTEGER NOT NULL,
    owner_id TEXT NOT NULL,
    secret TEXT,
    email TEXT,
    category_id INTEGER REFERENCES t_categories(id)
  )`,
];
