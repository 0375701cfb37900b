// An application whose OpenAPI document uses every option that changes it, for the linter test: all
// column kinds of the three dialects (the MySQL and PostgreSQL pools never connect: the document needs
// no database), field `schema` overrides, scrub, access rules, moved and removed routes, switched-off
// operations, custom actions with and without schemas, the security option, license, contact, a prefix.
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { bigint as mysqlBigint, datetime, int, json, mysqlEnum, mysqlTable, mediumtext, tinyint, tinytext, varchar as mysqlVarchar } from 'drizzle-orm/mysql-core';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { bigint, boolean, date, integer as pgInteger, jsonb, numeric, pgTable, smallint, text as pgText, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';
import { blob, integer, real, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import mysql from 'mysql2/promise';
import { Pool } from 'pg';
import { crud, defineService, TesseraError, type ServerOptions, type Service } from 'tessera-api';

const posts = sqliteTable('posts', {
  id: text('id').primaryKey().$defaultFn(() => randomUUID()),
  slug: text('slug', { length: 80 }).notNull(),
  title: text('title', { length: 200 }).notNull(),
  body: text('body'),
  status: text('status', { enum: ['draft', 'published'] }).notNull().default('draft'),
  views: integer('views').notNull().default(0),
  score: real('score'),
  pinned: integer('pinned', { mode: 'boolean' }),
  publishedAt: integer('published_at', { mode: 'timestamp_ms' }),
  meta: blob('meta', { mode: 'json' }),
  cover: blob('cover', { mode: 'buffer' }),
  serial: blob('serial', { mode: 'bigint' }),
  authorId: text('author_id').notNull(),
  secretNote: text('secret_note'),
});

/** A key the caller chooses (not a number, not a UUID default). */
const tags = sqliteTable('tags', { name: text('name', { length: 40 }).primaryKey(), color: text('color') });

const events = pgTable('events', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: varchar('name', { length: 80 }).notNull(),
  notes: pgText('notes'),
  seats: smallint('seats'),
  capacity: pgInteger('capacity'),
  visitors: bigint('visitors', { mode: 'number' }),
  price: numeric('price', { precision: 10, scale: 2 }),
  startsAt: timestamp('starts_at', { mode: 'string' }),
  day: date('day'),
  isOpen: boolean('is_open'),
  labels: pgText('labels').array(),
  extra: jsonb('extra'),
});

const orders = mysqlTable('orders', {
  id: mysqlVarchar('id', { length: 36 }).primaryKey().$defaultFn(() => randomUUID()),
  note: tinytext('note'),
  description: mediumtext('description'),
  quantity: int('quantity', { unsigned: true }).notNull(),
  priority: tinyint('priority'),
  total: mysqlBigint('total', { mode: 'bigint', unsigned: true }),
  placedAt: datetime('placed_at'),
  state: mysqlEnum('state', ['new', 'paid', 'sent']).notNull(),
  payload: json('payload'),
});

export interface LintApp {
  services: Service[];
  options: ServerOptions;
  close(): Promise<void>;
}

interface User {
  id: string;
}

export function defineLintApp(): LintApp {
  const sqlite = new Database(':memory:');
  const pool = new Pool({ connectionString: 'postgres://postgres@127.0.0.1:5432/never_connected' });
  const mysqlPool = mysql.createPool({ uri: 'mysql://root@127.0.0.1:3306/never_connected', supportBigNumbers: true });

  const blog = defineService({ name: 'press', db: drizzleSqlite(sqlite) });
  blog.resource({ name: 'posts', table: posts, id: posts.id }).use(
    crud({
      access: { authorize: ({ ctx }) => ctx.user !== undefined, scope: ({ ctx }) => ({ authorId: { eq: (ctx.user as User).id } }) },
      fields: {
        id: { read: true, filter: ['eq', 'in'], sort: true },
        slug: { read: true, create: true, filter: ['eq', 'startsWith'], schema: { type: 'string', pattern: '^[a-z0-9-]+$' } },
        title: { read: true, create: true, update: true, filter: ['contains', 'endsWith'], sort: true },
        body: { read: true, create: true, update: true, filter: ['contains', 'isNull'] },
        status: { read: true, create: true, update: true, filter: ['eq', 'in', 'notIn'] },
        views: { read: true, filter: ['gt', 'gte', 'lt', 'lte', 'between'], sort: true },
        score: { read: true, create: true, update: true, filter: ['between'] },
        pinned: { read: true, create: true, update: true, filter: ['eq', 'isNotNull'] },
        publishedAt: { read: true, create: true, filter: ['gt', 'lt'], sort: true },
        meta: { read: true, create: true, update: true },
        cover: { read: true, create: true },
        serial: { read: true, create: true, filter: ['eq', 'ne'] },
        authorId: { read: true },
        secretNote: { create: true, read: true, scrub: ({ value, ctx }) => ((ctx.user as User | undefined)?.id === 'editor' ? value : null) },
      },
      defaultLimit: 10,
      maxLimit: 50,
      routes: { list: { path: '/search' }, delete: false },
      operations: { findOne: false },
      hooks: { beforeCreate: ({ data, ctx }) => ({ ...data, authorId: (ctx.user as User).id }) },
    }),
  );
  blog.resource({ name: 'tags', table: tags, id: tags.name }).use(
    crud({ access: 'public', fields: { name: { read: true, create: true, filter: ['eq'], sort: true }, color: { read: true, create: true, update: true } } }),
  );
  blog.action('publish', {
    input: {
      type: 'object',
      properties: { ids: { type: 'array', maxItems: 20, items: { type: 'string', format: 'uuid', maxLength: 36 } }, note: { type: 'string', maxLength: 500 } },
      required: ['ids'],
      additionalProperties: false,
    },
    output: { type: 'object', properties: { published: { type: 'integer', minimum: 0, maximum: 20 } }, required: ['published'], additionalProperties: false },
    handler: ({ input }) => ({ published: (input as { ids: string[] }).ids.length }),
  });
  blog.action('ping', { handler: () => 'pong' });

  const calendar = defineService({ name: 'calendar', db: drizzlePostgres(pool) });
  const eventFields: Record<string, object> = {};
  for (const key of ['name', 'notes', 'seats', 'capacity', 'visitors', 'price', 'startsAt', 'day', 'isOpen', 'labels', 'extra']) eventFields[key] = { read: true, create: true, update: true };
  calendar.resource({ name: 'events', table: events, id: events.id }).use(
    crud({ access: 'public', fields: { id: { read: true, filter: ['eq'] }, ...eventFields, name: { read: true, create: true, filter: ['contains'], sort: true } } }),
  );

  const shop = defineService({ name: 'shop', db: drizzleMysql(mysqlPool) });
  const orderFields: Record<string, object> = {};
  for (const key of ['note', 'description', 'quantity', 'priority', 'total', 'placedAt', 'state', 'payload']) orderFields[key] = { read: true, create: true, update: true, filter: ['eq'] };
  shop.resource({ name: 'orders', table: orders, id: orders.id }).use(crud({ access: 'public', fields: { id: { read: true }, ...orderFields } }));

  const options: ServerOptions = {
    services: [blog, calendar, shop],
    prefix: '/v2',
    title: 'Everything',
    version: '3.1.4',
    description: 'Every option that changes the document.',
    license: { name: 'Apache 2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0.html' },
    contact: { name: 'Platform team', url: 'https://example.com/support', email: 'platform@example.com' },
    openApiPath: '/spec.json',
    requestLogging: false,
    context: (req) => {
      const header = req.headers.authorization;
      if (header === undefined) return {};
      if (header !== 'Bearer editor') throw new TesseraError('UNAUTHORIZED', 'unknown token');
      return { user: { id: 'editor' } };
    },
    security: {
      schemes: { bearer: { type: 'http', scheme: 'bearer', description: 'An editor token.' }, key: { type: 'apiKey', in: 'header', name: 'x-api-key' } },
      require: { 'press.publish': true, 'press.tags.create': ['bearer'], 'calendar.events.get': false },
    },
    endpoints: [{ method: 'GET', path: '/hello', handler: (_req, res) => void res.send('hello') }],
  };
  return {
    services: options.services!,
    options,
    async close() {
      sqlite.close();
      await pool.end();
      await mysqlPool.end();
    },
  };
}
