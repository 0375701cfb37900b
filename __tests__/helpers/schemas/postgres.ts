// The test tables on PostgreSQL (same logical tables as sqlite.ts).
import { bigint, boolean, date, doublePrecision, integer, jsonb, numeric, pgTable, serial, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { nextTestDate, nextTestUuid } from './test-defaults';

export const categories = pgTable('t_categories', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 100 }).notNull(),
});

export const notes = pgTable('t_notes', {
  id: varchar('id', { length: 36 }).primaryKey().$defaultFn(() => nextTestUuid()),
  title: varchar('title', { length: 200 }).notNull(),
  content: text('content'),
  internal: text('internal'),
});

export const items = pgTable('t_items', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 100 }).notNull().unique(),
  price: integer('price'),
  rating: doublePrecision('rating'),
  active: boolean('active').notNull().default(true),
  createdAt: timestamp('created_at', { mode: 'date', precision: 3, withTimezone: true }).notNull().$defaultFn(() => nextTestDate()),
  ownerId: varchar('owner_id', { length: 50 }).notNull(),
  secret: varchar('secret', { length: 100 }),
  email: varchar('email', { length: 100 }),
  categoryId: integer('category_id').references(() => categories.id),
});

/** bigint travels as a decimal string. Drizzle 0.45 has no bytea column type, so no payload here. */
export const readings = pgTable('t_readings', {
  id: serial('id').primaryKey(),
  serial: bigint('serial', { mode: 'bigint' }).notNull(),
});

/** A key the client supplies (no auto-increment, no `$defaultFn`) and a number many requests write: the statement cache serves it. */
export const counters = pgTable('t_counters', {
  code: varchar('code', { length: 36 }).primaryKey(),
  n: integer('n').notNull(),
  label: varchar('label', { length: 100 }),
});

/** Column kinds whose driver values Drizzle maps (dates, numerics, JSON): no application default, so the compiled handlers run them without Drizzle. */
export const kinds = pgTable('t_kinds', {
  id: serial('id').primaryKey(),
  label: varchar('label', { length: 100 }).notNull(),
  takenAt: timestamp('taken_at', { mode: 'date', precision: 3, withTimezone: true }),
  seenAt: timestamp('seen_at', { mode: 'string', precision: 3 }),
  day: date('day'),
  valid: boolean('valid'),
  ratio: doublePrecision('ratio'),
  amount: numeric('amount', { precision: 10, scale: 2 }),
  meta: jsonb('meta'),
});

export const DDL = [
  'DROP TABLE IF EXISTS t_kinds',
  'CREATE TABLE t_kinds (id SERIAL PRIMARY KEY, label VARCHAR(100) NOT NULL, taken_at TIMESTAMPTZ(3), seen_at TIMESTAMP(3), day DATE, valid BOOLEAN, ratio DOUBLE PRECISION, amount NUMERIC(10, 2), meta JSONB)',
  'DROP TABLE IF EXISTS t_counters, t_readings, t_items, t_notes, t_categories CASCADE',
  'CREATE TABLE t_counters (code VARCHAR(36) PRIMARY KEY, n INTEGER NOT NULL, label VARCHAR(100))',
  'CREATE TABLE t_readings (id SERIAL PRIMARY KEY, serial BIGINT NOT NULL)',
  'CREATE TABLE t_categories (id SERIAL PRIMARY KEY, name VARCHAR(100) NOT NULL)',
  'CREATE TABLE t_notes (id VARCHAR(36) PRIMARY KEY, title VARCHAR(200) NOT NULL, content TEXT, internal TEXT)',
  `CREATE TABLE t_items (
    id SERIAL PRIMARY KEY,
    name VARCHAR(100) NOT NULL UNIQUE,
    price INTEGER,
    rating DOUBLE PRECISION,
    active BOOLEAN NOT NULL DEFAULT TRUE,
    created_at TIMESTAMPTZ(3) NOT NULL,
    owner_id VARCHAR(50) NOT NULL,
    secret VARCHAR(100),
    email VARCHAR(100),
    category_id INTEGER REFERENCES t_categories(id)
  )`,
];
