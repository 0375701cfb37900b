// The test tables on MySQL / MariaDB (same logical tables as sqlite.ts).
import { bigint, boolean, date, datetime, decimal, double, int, json, mysqlTable, text, varchar } from 'drizzle-orm/mysql-core';
import { nextTestDate, nextTestUuid } from './test-defaults';

export const categories = mysqlTable('t_categories', {
  id: int('id').primaryKey().autoincrement(),
  name: varchar('name', { length: 100 }).notNull(),
});

export const notes = mysqlTable('t_notes', {
  id: varchar('id', { length: 36 }).primaryKey().$defaultFn(() => nextTestUuid()),
  title: varchar('title', { length: 200 }).notNull(),
  content: text('content'),
  internal: text('internal'),
});

export const items = mysqlTable('t_items', {
  id: int('id').primaryKey().autoincrement(),
  name: varchar('name', { length: 100 }).notNull().unique(),
  price: int('price'),
  rating: double('rating'),
  active: boolean('active').notNull().default(true),
  createdAt: datetime('created_at', { mode: 'date', fsp: 3 }).notNull().$defaultFn(() => nextTestDate()),
  ownerId: varchar('owner_id', { length: 50 }).notNull(),
  secret: varchar('secret', { length: 100 }),
  email: varchar('email', { length: 100 }),
  categoryId: int('category_id').references(() => categories.id),
});

/** bigint travels as a decimal string. Drizzle 0.45 has no binary column type for mysql, so no payload here. */
export const readings = mysqlTable('t_readings', {
  id: int('id').primaryKey().autoincrement(),
  serial: bigint('serial', { mode: 'bigint' }).notNull(),
});

/** A key the client supplies (no auto-increment, no `$defaultFn`) and a number many requests write: the statement cache serves it. */
export const counters = mysqlTable('t_counters', {
  code: varchar('code', { length: 36 }).primaryKey(),
  n: int('n').notNull(),
  label: varchar('label', { length: 100 }),
});

/** Column kinds whose driver values Drizzle maps (dates, decimals, JSON): no application default, so the fixed shapes serve them. */
export const kinds = mysqlTable('t_kinds', {
  id: int('id').primaryKey().autoincrement(),
  label: varchar('label', { length: 100 }).notNull(),
  takenAt: datetime('taken_at', { mode: 'date', fsp: 3 }),
  seenAt: datetime('seen_at', { mode: 'string', fsp: 3 }),
  day: date('day', { mode: 'string' }),
  valid: boolean('valid'),
  ratio: double('ratio'),
  amount: decimal('amount', { precision: 10, scale: 2 }),
  meta: json('meta'),
});

export const DDL = [
  'DROP TABLE IF EXISTS t_kinds',
  'CREATE TABLE t_kinds (id INT AUTO_INCREMENT PRIMARY KEY, label VARCHAR(100) NOT NULL, taken_at DATETIME(3), seen_at DATETIME(3), day DATE, valid BOOLEAN, ratio DOUBLE, amount DECIMAL(10, 2), meta JSON) ENGINE=InnoDB',
  'DROP TABLE IF EXISTS t_counters',
  'CREATE TABLE t_counters (code VARCHAR(36) PRIMARY KEY, n INT NOT NULL, label VARCHAR(100)) ENGINE=InnoDB',
  'DROP TABLE IF EXISTS t_readings',
  'CREATE TABLE t_readings (id INT AUTO_INCREMENT PRIMARY KEY, serial BIGINT NOT NULL) ENGINE=InnoDB',
  'DROP TABLE IF EXISTS t_items',
  'DROP TABLE IF EXISTS t_notes',
  'DROP TABLE IF EXISTS t_categories',
  'CREATE TABLE t_categories (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100) NOT NULL) ENGINE=InnoDB',
  'CREATE TABLE t_notes (id VARCHAR(36) PRIMARY KEY, title VARCHAR(200) NOT NULL, content TEXT, internal TEXT) ENGINE=InnoDB',
  `CREATE TABLE t_items (
    id INT AUTO_INCREMENT PRIMARY KEY,
    name VARCHAR(100) NOT NULL UNIQUE,
    price INT,
    rating DOUBLE,
    active BOOLEAN NOT NULL DEFAULT TRUE,
    created_at DATETIME(3) NOT NULL,
    owner_id VARCHAR(50) NOT NULL,
    secret VARCHAR(100),
    email VARCHAR(100),
    category_id INT,
    FOREIGN KEY (category_id) REFERENCES t_categories(id)
  ) ENGINE=InnoDB`,
];
