// What the statement suites run against on one dialect, each file in its own namespace (jest runs them in parallel,
// beside the crud suites, on the same table names): an eligible table of varied column types, one with a `$defaultFn`
// column and one with only an `$onUpdateFn` column (spec §8 rule 3), seeded rows with the where battery they answer,
// fresh drizzle db objects over one client, and the service the suites define over each.
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import type { Logger } from 'drizzle-orm';
import { boolean as mysqlBoolean, datetime, int, mysqlTable, text as mysqlText, varchar as mysqlVarchar } from 'drizzle-orm/mysql-core';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { boolean as pgBoolean, integer as pgInteger, pgTable, serial, text as pgText, timestamp, varchar as pgVarchar } from 'drizzle-orm/pg-core';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { Pool } from 'pg';
import { crud, defineService, type Where } from 'tessera-api';
import { openDatabase, type DialectName, type TestDatabase } from '../../helpers/databases';

/** What the `$defaultFn` column is filled with, and what the `$onUpdateFn` column is set to on every write. */
export const DEFAULT_CODE = 'generated';
export const UPDATE_MARK = 'touched';

const sqliteTables = {
  products: sqliteTable('sc_products', {
    id: integer('id').primaryKey({ autoIncrement: true }),
    name: text('name').notNull(),
    quantity: integer('quantity'),
    isActive: integer('is_active', { mode: 'boolean' }).notNull().default(true),
    releasedAt: integer('released_at', { mode: 'timestamp_ms' }),
    featured: integer('featured', { mode: 'boolean' }),
    ownerId: text('owner_id').notNull(),
    note: text('note'),
  }),
  stamped: sqliteTable('sc_stamped', {
    id: integer('id').primaryKey({ autoIncrement: true }),
    label: text('label').notNull(),
    code: text('code').notNull().$defaultFn(() => DEFAULT_CODE),
  }),
  revised: sqliteTable('sc_revised', {
    id: integer('id').primaryKey({ autoIncrement: true }),
    label: text('label').notNull(),
    revision: text('revision').$onUpdateFn(() => UPDATE_MARK),
  }),
};

/** A table the application creates after the server is built (migrations at start): same columns in every dialect. */
const lateSqlite = sqliteTable('sc_late', { id: integer('id').primaryKey({ autoIncrement: true }), label: text('label').notNull() });

const mysqlTables = {
  products: mysqlTable('sc_products', {
    id: int('id').primaryKey().autoincrement(),
    name: mysqlVarchar('name', { length: 100 }).notNull(),
    quantity: int('quantity'),
    isActive: mysqlBoolean('is_active').notNull().default(true),
    releasedAt: datetime('released_at', { mode: 'date', fsp: 3 }),
    featured: mysqlBoolean('featured'),
    ownerId: mysqlVarchar('owner_id', { length: 50 }).notNull(),
    note: mysqlText('note'),
  }),
  stamped: mysqlTable('sc_stamped', {
    id: int('id').primaryKey().autoincrement(),
    label: mysqlVarchar('label', { length: 100 }).notNull(),
    code: mysqlVarchar('code', { length: 50 }).notNull().$defaultFn(() => DEFAULT_CODE),
  }),
  revised: mysqlTable('sc_revised', {
    id: int('id').primaryKey().autoincrement(),
    label: mysqlVarchar('label', { length: 100 }).notNull(),
    revision: mysqlVarchar('revision', { length: 50 }).$onUpdateFn(() => UPDATE_MARK),
  }),
};

const lateMysql = mysqlTable('sc_late', { id: int('id').primaryKey().autoincrement(), label: mysqlVarchar('label', { length: 100 }).notNull() });

const postgresTables = {
  products: pgTable('sc_products', {
    id: serial('id').primaryKey(),
    name: pgVarchar('name', { length: 100 }).notNull(),
    quantity: pgInteger('quantity'),
    isActive: pgBoolean('is_active').notNull().default(true),
    releasedAt: timestamp('released_at', { mode: 'date', precision: 3, withTimezone: true }),
    featured: pgBoolean('featured'),
    ownerId: pgVarchar('owner_id', { length: 50 }).notNull(),
    note: pgText('note'),
  }),
  stamped: pgTable('sc_stamped', {
    id: serial('id').primaryKey(),
    label: pgVarchar('label', { length: 100 }).notNull(),
    code: pgVarchar('code', { length: 50 }).notNull().$defaultFn(() => DEFAULT_CODE),
  }),
  revised: pgTable('sc_revised', {
    id: serial('id').primaryKey(),
    label: pgVarchar('label', { length: 100 }).notNull(),
    revision: pgVarchar('revision', { length: 50 }).$onUpdateFn(() => UPDATE_MARK),
  }),
};

const latePostgres = pgTable('sc_late', { id: serial('id').primaryKey(), label: pgVarchar('label', { length: 100 }).notNull() });

const LATE_DDL: Record<DialectName, { create: string; drop: string }> = {
  sqlite: { create: 'CREATE TABLE sc_late (id INTEGER PRIMARY KEY AUTOINCREMENT, label TEXT NOT NULL)', drop: 'DROP TABLE IF EXISTS sc_late' },
  mysql: { create: 'CREATE TABLE sc_late (id INT AUTO_INCREMENT PRIMARY KEY, label VARCHAR(100) NOT NULL) ENGINE=InnoDB', drop: 'DROP TABLE IF EXISTS sc_late' },
  postgres: { create: 'CREATE TABLE sc_late (id SERIAL PRIMARY KEY, label VARCHAR(100) NOT NULL)', drop: 'DROP TABLE IF EXISTS sc_late' },
};

/** Created once per run; emptied (ids restarting at 1) before each test. */
const DDL: Record<DialectName, { create: string[]; empty: string[] }> = {
  sqlite: {
    create: [
      'DROP TABLE IF EXISTS sc_products',
      'DROP TABLE IF EXISTS sc_stamped',
      'DROP TABLE IF EXISTS sc_revised',
      `CREATE TABLE sc_products (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, quantity INTEGER,
        is_active INTEGER NOT NULL DEFAULT 1, released_at INTEGER, featured INTEGER, owner_id TEXT NOT NULL, note TEXT)`,
      'CREATE TABLE sc_stamped (id INTEGER PRIMARY KEY AUTOINCREMENT, label TEXT NOT NULL, code TEXT NOT NULL)',
      'CREATE TABLE sc_revised (id INTEGER PRIMARY KEY AUTOINCREMENT, label TEXT NOT NULL, revision TEXT)',
    ],
    empty: ['DELETE FROM sc_products', 'DELETE FROM sc_stamped', 'DELETE FROM sc_revised', 'DELETE FROM sqlite_sequence'],
  },
  mysql: {
    create: [
      'DROP TABLE IF EXISTS sc_products, sc_stamped, sc_revised',
      `CREATE TABLE sc_products (id INT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(100) NOT NULL, quantity INT,
        is_active BOOLEAN NOT NULL DEFAULT TRUE, released_at DATETIME(3), featured BOOLEAN, owner_id VARCHAR(50) NOT NULL, note TEXT) ENGINE=InnoDB`,
      'CREATE TABLE sc_stamped (id INT AUTO_INCREMENT PRIMARY KEY, label VARCHAR(100) NOT NULL, code VARCHAR(50) NOT NULL) ENGINE=InnoDB',
      'CREATE TABLE sc_revised (id INT AUTO_INCREMENT PRIMARY KEY, label VARCHAR(100) NOT NULL, revision VARCHAR(50)) ENGINE=InnoDB',
    ],
    empty: ['TRUNCATE TABLE sc_products', 'TRUNCATE TABLE sc_stamped', 'TRUNCATE TABLE sc_revised'],
  },
  postgres: {
    create: [
      'DROP TABLE IF EXISTS sc_products, sc_stamped, sc_revised',
      `CREATE TABLE sc_products (id SERIAL PRIMARY KEY, name VARCHAR(100) NOT NULL, quantity INTEGER,
        is_active BOOLEAN NOT NULL DEFAULT TRUE, released_at TIMESTAMPTZ(3), featured BOOLEAN, owner_id VARCHAR(50) NOT NULL, note TEXT)`,
      'CREATE TABLE sc_stamped (id SERIAL PRIMARY KEY, label VARCHAR(100) NOT NULL, code VARCHAR(50) NOT NULL)',
      'CREATE TABLE sc_revised (id SERIAL PRIMARY KEY, label VARCHAR(100) NOT NULL, revision VARCHAR(50))',
    ],
    // TRUNCATE keeps the tables (and so the plans of statements prepared on pooled connections) in place.
    empty: ['TRUNCATE sc_products, sc_stamped, sc_revised RESTART IDENTITY'],
  },
};

export interface ProductSeed {
  name: string;
  quantity: number | null;
  isActive: boolean;
  releasedAt: Date | null;
  featured: boolean | null;
  ownerId: string;
  note: string | null;
}

/**
 * The products every test starts with, ids 1..7 in this order. The names and notes hold `%`, `_`, `*` and a
 * quote, with look-alikes that a pattern match would wrongly reach if those characters were wildcards
 * (`delta 50 off` for `50%_off`, `betamax` for `beta*`, `Xray` for `_ray`), and a backslash. Two dates 1 ms apart; `featured` is
 * a nullable boolean (true, false, null).
 */
export const PRODUCTS: readonly ProductSeed[] = [
  { name: 'Alpha 50%_off', quantity: 5, isActive: true, releasedAt: new Date('2024-01-01T00:00:00.000Z'), featured: true, ownerId: 'alice', note: 'first' },
  { name: 'beta*star', quantity: 10, isActive: false, releasedAt: new Date('2024-02-01T10:30:00.000Z'), featured: null, ownerId: 'bob', note: null },
  { name: "x' OR '1'='1", quantity: null, isActive: true, releasedAt: new Date('2024-03-15T12:00:00.500Z'), featured: false, ownerId: 'alice', note: '50% off_today' },
  { name: 'Gamma_ray', quantity: 20, isActive: true, releasedAt: null, featured: null, ownerId: 'bob', note: 'under_score' },
  { name: 'delta 50 off', quantity: 15, isActive: false, releasedAt: new Date('2024-05-05T05:05:05.005Z'), featured: true, ownerId: 'carol', note: null },
  { name: 'betamax', quantity: 0, isActive: true, releasedAt: new Date('2024-06-30T23:59:59.999Z'), featured: false, ownerId: 'carol', note: 'plain\\dir' },
  { name: 'Xray', quantity: 10, isActive: false, releasedAt: new Date('2024-03-15T12:00:00.499Z'), featured: null, ownerId: 'alice', note: 'a*b' },
];

/** The product row as Tessera answers it (CONTRACT §2: Date as ISO-8601), with its id. */
export function productRow(id: number): Record<string, unknown> {
  const seed = PRODUCTS[id - 1];
  return { id, ...seed, releasedAt: seed.releasedAt === null ? null : seed.releasedAt.toISOString() };
}

export interface StatementCacheFixture {
  readonly dialect: DialectName;
  readonly tables: { products: any; stamped: any; revised: any };
  /** `sc_late`: absent until createLateTable(), dropped again by dropLateTable(). */
  readonly lateTable: any;
  createLateTable(): Promise<void>;
  dropLateTable(): Promise<void>;
  /** The placeholder the database's SQL text carries for the first bound value. */
  readonly placeholder: string;
  /** Empties the tables, restarts their ids and inserts PRODUCTS (ids 1..7). */
  reset(): Promise<void>;
  /** A new drizzle db object over the shared client: its own statement cache, so its own stats. */
  freshDb(logger?: Logger): any;
  /** PostgreSQL only: a pool of one connection (one session) in the namespace, and a db over it. */
  openPostgresSession(): { pool: Pool; db: any };
  close(): Promise<void>;
}

const POSTGRES_URL = process.env.TESSERA_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Creates the tables in `namespace` (`[a-z_]+`): a sibling database on MySQL, a schema on PostgreSQL (see openDatabase).
 * Every suite file passes its own, so that one file's create and reset never meet another's tables.
 */
export async function openStatementCacheFixture(dialect: DialectName, namespace: string): Promise<StatementCacheFixture> {
  const database: TestDatabase = await openDatabase(dialect, namespace);
  const client = database.db.$client;
  for (const statement of DDL[dialect].create) await database.raw(statement);
  const tables = dialect === 'sqlite' ? sqliteTables : dialect === 'mysql' ? mysqlTables : postgresTables;
  const sessions: Pool[] = [];
  await database.raw(LATE_DDL[dialect].drop);

  return {
    dialect,
    tables,
    lateTable: dialect === 'sqlite' ? lateSqlite : dialect === 'mysql' ? lateMysql : latePostgres,
    placeholder: dialect === 'postgres' ? '$1' : '?',
    async createLateTable() {
      await database.raw(LATE_DDL[dialect].create);
    },
    async dropLateTable() {
      await database.raw(LATE_DDL[dialect].drop);
    },
    async reset() {
      for (const statement of DDL[dialect].empty) await database.raw(statement);
      // The helper's own db object inserts: it never meets the suite's caches.
      const insert = database.db.insert(tables.products).values(PRODUCTS.map((row) => ({ ...row })));
      if (dialect === 'sqlite') insert.run();
      else await insert;
    },
    freshDb(logger) {
      const config = logger === undefined ? {} : { logger };
      if (dialect === 'sqlite') return drizzleSqlite(client, config);
      // The same options openDatabase gives its own mysql2 db object.
      if (dialect === 'mysql') return drizzleMysql(client, { mode: 'default', ...config });
      return drizzlePostgres(client, config);
    },
    openPostgresSession() {
      if (dialect !== 'postgres') throw new Error('openPostgresSession is for postgres only');
      const pool = new Pool({ connectionString: POSTGRES_URL, max: 1, options: `-c search_path=${namespace}` });
      sessions.push(pool);
      return { pool, db: drizzlePostgres(pool) };
    },
    async close() {
      for (const pool of sessions) await pool.end();
      await database.close();
    },
  };
}

const PRODUCT_FIELDS = {
  id: { read: true, filter: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'notIn'], sort: true },
  name: { read: true, create: true, update: true, filter: ['eq', 'ne', 'in', 'notIn', 'contains', 'startsWith', 'endsWith'], sort: true },
  quantity: { read: true, create: true, update: true, filter: ['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'notIn', 'isNull', 'isNotNull'], sort: true },
  isActive: { read: true, create: true, update: true, filter: ['eq', 'ne'] },
  releasedAt: { read: true, create: true, update: true, filter: ['eq', 'gt', 'gte', 'lt', 'lte', 'between', 'isNull', 'isNotNull'], sort: true },
  featured: { read: true, create: true, update: true, filter: ['eq', 'ne', 'isNull', 'isNotNull'] },
  ownerId: { read: true, create: true, filter: ['eq'] },
  note: { read: true, create: true, update: true, filter: ['contains', 'startsWith', 'endsWith', 'isNull', 'isNotNull'] },
} as const;

export const LABEL_FIELDS = { id: { read: true, filter: ['eq'], sort: true }, label: { read: true, create: true, update: true, filter: ['eq', 'contains'] } } as const;

/**
 * The suite's service over a db object: public `products` (eligible), `ownedProducts` on the same table with a scope
 * function (spec §8 rule 2), `stamped` with a `$defaultFn` column and `revised` with an `$onUpdateFn` one (rule 3).
 */
export function defineShop(fixture: StatementCacheFixture, db: unknown, name = 'shop') {
  const { products, stamped, revised } = fixture.tables;
  const service = defineService({ name, db });
  return {
    service,
    products: service.resource({ name: 'products', table: products, id: products.id }).use(crud({ access: 'public', fields: PRODUCT_FIELDS })),
    ownedProducts: service.resource({ name: 'ownedProducts', table: products, id: products.id }).use(
      crud({
        access: { authorize: () => true, scope: ({ ctx }) => (ctx.admin === true ? undefined : { ownerId: { eq: ctx.user } }) },
        fields: PRODUCT_FIELDS,
      }),
    ),
    stamped: service.resource({ name: 'stamped', table: stamped, id: stamped.id }).use(crud({ access: 'public', fields: { ...LABEL_FIELDS, code: { read: true } } })),
    revised: service.resource({ name: 'revised', table: revised, id: revised.id }).use(crud({ access: 'public', fields: { ...LABEL_FIELDS, revision: { read: true } } })),
  };
}

export type Shop = ReturnType<typeof defineShop>;

/** One `where` of the parity battery, with the ids of the seeded products it matches (in primary-key order). */
export interface WhereCase {
  where: Where;
  ids: number[];
}

/** Every filter operator (spec §2.4) and AND/OR/NOT nesting, over integer, text, boolean, date and nullable columns. */
export const WHERE_BATTERY: WhereCase[] = [
  { where: { id: { eq: 3 } }, ids: [3] },
  { where: { id: { ne: 3 } }, ids: [1, 2, 4, 5, 6, 7] },
  { where: { id: { gt: 5 } }, ids: [6, 7] },
  { where: { id: { gte: 5 } }, ids: [5, 6, 7] },
  { where: { id: { lt: 3 } }, ids: [1, 2] },
  { where: { id: { lte: 3 } }, ids: [1, 2, 3] },
  { where: { id: { between: [2, 4] } }, ids: [2, 3, 4] },
  { where: { id: { in: [7, 2] } }, ids: [2, 7] },
  { where: { id: { notIn: [1, 2, 3] } }, ids: [4, 5, 6, 7] },
  { where: { quantity: { eq: 10 } }, ids: [2, 7] },
  { where: { quantity: { eq: 999 } }, ids: [] },
  { where: { quantity: { ne: 10 } }, ids: [1, 4, 5, 6] },
  { where: { quantity: { gt: 10 } }, ids: [4, 5] },
  { where: { quantity: { gte: 10 } }, ids: [2, 4, 5, 7] },
  { where: { quantity: { lt: 10 } }, ids: [1, 6] },
  { where: { quantity: { lte: 10 } }, ids: [1, 2, 6, 7] },
  { where: { quantity: { between: [5, 15] } }, ids: [1, 2, 5, 7] },
  { where: { quantity: { in: [0, 20, 99] } }, ids: [4, 6] },
  { where: { quantity: { notIn: [5, 10] } }, ids: [4, 5, 6] },
  { where: { quantity: { isNull: true } }, ids: [3] },
  { where: { quantity: { isNotNull: true } }, ids: [1, 2, 4, 5, 6, 7] },
  { where: { quantity: { gt: 0, lt: 20 } }, ids: [1, 2, 5, 7] },
  { where: { name: { eq: "x' OR '1'='1" } }, ids: [3] },
  { where: { name: { ne: 'Xray' } }, ids: [1, 2, 3, 4, 5, 6] },
  { where: { name: { in: ['Xray', 'betamax'] } }, ids: [6, 7] },
  { where: { name: { notIn: ["x' OR '1'='1", 'Gamma_ray'] } }, ids: [1, 2, 5, 6, 7] },
  { where: { name: { contains: '50%_off' } }, ids: [1] },
  { where: { name: { contains: "' OR '" } }, ids: [3] },
  { where: { name: { startsWith: 'beta*' } }, ids: [2] },
  { where: { name: { endsWith: '_ray' } }, ids: [4] },
  { where: { note: { contains: '%' } }, ids: [3] },
  { where: { note: { contains: '_' } }, ids: [3, 4] },
  { where: { note: { contains: '*' } }, ids: [7] },
  { where: { note: { contains: '\\' } }, ids: [6] },
  { where: { note: { endsWith: '\\dir' } }, ids: [6] },
  { where: { note: { startsWith: '50%' } }, ids: [3] },
  { where: { note: { endsWith: '_score' } }, ids: [4] },
  { where: { note: { isNull: true } }, ids: [2, 5] },
  { where: { note: { isNotNull: true } }, ids: [1, 3, 4, 6, 7] },
  { where: { isActive: { eq: false } }, ids: [2, 5, 7] },
  { where: { isActive: { ne: false } }, ids: [1, 3, 4, 6] },
  { where: { releasedAt: { eq: '2024-03-15T12:00:00.500Z' } }, ids: [3] },
  { where: { releasedAt: { gt: '2024-03-15T12:00:00.499Z' } }, ids: [3, 5, 6] },
  { where: { releasedAt: { gte: '2024-03-15T12:00:00.499Z' } }, ids: [3, 5, 6, 7] },
  { where: { releasedAt: { lt: '2024-02-01T10:30:00.000Z' } }, ids: [1] },
  { where: { releasedAt: { lte: '2024-02-01T10:30:00.000Z' } }, ids: [1, 2] },
  { where: { releasedAt: { between: ['2024-02-01T10:30:00.000Z', '2024-05-05T05:05:05.005Z'] } }, ids: [2, 3, 5, 7] },
  { where: { releasedAt: { isNull: true } }, ids: [4] },
  { where: { featured: { eq: true } }, ids: [1, 5] },
  { where: { featured: { ne: true } }, ids: [3, 6] },
  { where: { featured: { isNull: true } }, ids: [2, 4, 7] },
  { where: { featured: { isNotNull: true } }, ids: [1, 3, 5, 6] },
  { where: { AND: [{ ownerId: { eq: 'alice' } }, { quantity: { isNotNull: true } }] }, ids: [1, 7] },
  { where: { OR: [{ quantity: { eq: 0 } }, { name: { startsWith: 'Alpha' } }] }, ids: [1, 6] },
  { where: { NOT: { ownerId: { eq: 'alice' } } }, ids: [2, 4, 5, 6] },
  { where: { OR: [{ AND: [{ isActive: { eq: true } }, { quantity: { gte: 5 } }] }, { NOT: { note: { isNotNull: true } } }] }, ids: [1, 2, 4, 5] },
  {
    where: { AND: [{ NOT: { OR: [{ ownerId: { eq: 'bob' } }, { ownerId: { eq: 'carol' } }] } }, { releasedAt: { lt: '2024-03-15T12:00:00.500Z' } }] },
    ids: [1, 7],
  },
  { where: { ownerId: { eq: 'alice' }, OR: [{ quantity: { eq: 5 } }, { note: { contains: '*' } }] }, ids: [1, 7] },
];

/** Orderings for the parity battery: rows must come in the same order with and without the cache. */
export const ORDERINGS = [
  [{ field: 'quantity', direction: 'desc' }],
  [{ field: 'releasedAt' }, { field: 'name', direction: 'desc' }],
  [{ field: 'id', direction: 'desc' }],
] as const;
