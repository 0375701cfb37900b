// The tables of the relations suite on each dialect: authors ← posts ← comments (and comments ← their replies), foreign keys indexed. Posts and
// comments join through Drizzle `relations()` in the db's schema; authors reach their posts through the foreign key
// alone. The database counts the statements it is sent through the driver (the no-N+1 tests) and keeps their SQL
// (the EXPLAIN tests).
import Database from 'better-sqlite3';
import { relations } from 'drizzle-orm';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import * as mysqlCore from 'drizzle-orm/mysql-core';
import * as pgCore from 'drizzle-orm/pg-core';
import * as sqliteCore from 'drizzle-orm/sqlite-core';
import mysql from 'mysql2/promise';
import { Pool } from 'pg';
import type { DialectName } from './databases';

const MYSQL_URL = process.env.TESSERA_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const POSTGRES_URL = process.env.TESSERA_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

function sqliteTables() {
  const { sqliteTable, integer, text, index } = sqliteCore;
  const authors = sqliteTable('rel_authors', {
    id: integer('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email'),
    active: integer('active', { mode: 'boolean' }).notNull(),
    secretNote: text('secret_note'),
  });
  const posts = sqliteTable('rel_posts', { id: integer('id').primaryKey(), title: text('title').notNull(), authorId: integer('author_id').references(() => authors.id), hidden: text('hidden') }, (t) => [
    index('rel_posts_author').on(t.authorId),
  ]);
  const comments = sqliteTable('rel_comments', { id: integer('id').primaryKey(), postId: integer('post_id').notNull().references(() => posts.id), body: text('body').notNull(), rating: integer('rating'), parentId: integer('parent_id') }, (t) => [
    index('rel_comments_post').on(t.postId),
  ]);
  return { authors, posts, comments };
}

function mysqlTables() {
  const { mysqlTable, int, varchar, boolean, index } = mysqlCore;
  const authors = mysqlTable('rel_authors', {
    id: int('id').primaryKey(),
    name: varchar('name', { length: 100 }).notNull(),
    email: varchar('email', { length: 100 }),
    active: boolean('active').notNull(),
    secretNote: varchar('secret_note', { length: 100 }),
  });
  const posts = mysqlTable('rel_posts', { id: int('id').primaryKey(), title: varchar('title', { length: 200 }).notNull(), authorId: int('author_id').references(() => authors.id), hidden: varchar('hidden', { length: 100 }) }, (t) => [
    index('rel_posts_author').on(t.authorId),
  ]);
  const comments = mysqlTable('rel_comments', { id: int('id').primaryKey(), postId: int('post_id').notNull().references(() => posts.id), body: varchar('body', { length: 200 }).notNull(), rating: int('rating'), parentId: int('parent_id') }, (t) => [
    index('rel_comments_post').on(t.postId),
  ]);
  return { authors, posts, comments };
}

function postgresTables() {
  const { pgTable, integer, text, boolean, index } = pgCore;
  const authors = pgTable('rel_authors', { id: integer('id').primaryKey(), name: text('name').notNull(), email: text('email'), active: boolean('active').notNull(), secretNote: text('secret_note') });
  const posts = pgTable('rel_posts', { id: integer('id').primaryKey(), title: text('title').notNull(), authorId: integer('author_id').references(() => authors.id), hidden: text('hidden') }, (t) => [
    index('rel_posts_author').on(t.authorId),
  ]);
  const comments = pgTable('rel_comments', { id: integer('id').primaryKey(), postId: integer('post_id').notNull().references(() => posts.id), body: text('body').notNull(), rating: integer('rating'), parentId: integer('parent_id') }, (t) => [
    index('rel_comments_post').on(t.postId),
  ]);
  return { authors, posts, comments };
}

function ddl(dialect: DialectName): string[] {
  const text = dialect === 'mysql' ? 'VARCHAR(200)' : 'TEXT';
  const bool = dialect === 'sqlite' ? 'INTEGER' : 'BOOLEAN';
  return [
    'DROP TABLE IF EXISTS rel_comments',
    'DROP TABLE IF EXISTS rel_posts',
    'DROP TABLE IF EXISTS rel_authors',
    `CREATE TABLE rel_authors (id INTEGER PRIMARY KEY, name ${text} NOT NULL, email ${text}, active ${bool} NOT NULL, secret_note ${text})`,
    `CREATE TABLE rel_posts (id INTEGER PRIMARY KEY, title ${text} NOT NULL, author_id INTEGER REFERENCES rel_authors(id), hidden ${text})`,
    'CREATE INDEX rel_posts_author ON rel_posts (author_id)',
    `CREATE TABLE rel_comments (id INTEGER PRIMARY KEY, post_id INTEGER NOT NULL REFERENCES rel_posts(id), body ${text} NOT NULL, rating INTEGER, parent_id INTEGER)`,
    'CREATE INDEX rel_comments_post ON rel_comments (post_id)',
  ];
}

export type RelationTables = ReturnType<typeof sqliteTables>;

export interface RelationDatabase {
  dialect: DialectName;
  db: any;
  tables: RelationTables;
  /** Statements sent through the driver since the last reset of the log, with their SQL. */
  statements: { sql: string; params: unknown[] }[];
  /**
   * SQL the driver prepared anew, in order: better-sqlite3's prepare, a PostgreSQL statement sent without a name (parsed
   * for that call only; pg prepares a named one once per connection). Always empty on MySQL: mysql2's query prepares nothing.
   */
  preparedTexts: string[];
  /** Runs SQL with positional parameters through the driver (not logged), answering the rows. */
  raw(sqlText: string, params?: unknown[]): Promise<any[]>;
  /**
   * The database's plan of a statement, one line per step. PostgreSQL plans with enable_seqscan off: on a table of a
   * few hundred rows it rightly prefers a sequential scan, and the question is whether the plan can walk the index,
   * as it will on a large table.
   */
  explain(sqlText: string, params: unknown[]): Promise<string[]>;
  reset(): Promise<void>;
  close(): Promise<void>;
}

function schemaOf(tables: RelationTables) {
  const { authors, posts, comments } = tables as any;
  const postsRelations = relations(posts, ({ one, many }: any) => ({
    author: one(authors, { fields: [posts.authorId], references: [authors.id] }),
    comments: many(comments),
  }));
  // A comment answers another (parent_id): a relation of the table to itself, which Drizzle names to pair its two sides.
  const commentsRelations = relations(comments, ({ one, many }: any) => ({
    post: one(posts, { fields: [comments.postId], references: [posts.id] }),
    parent: one(comments, { fields: [comments.parentId], references: [comments.id], relationName: 'thread' }),
    replies: many(comments, { relationName: 'thread' }),
  }));
  return { authors, posts, comments, postsRelations, commentsRelations };
}

export async function openRelationDatabase(dialect: DialectName): Promise<RelationDatabase> {
  const statements: { sql: string; params: unknown[] }[] = [];
  const preparedTexts: string[] = [];
  if (dialect === 'sqlite') {
    const client = new Database(':memory:');
    const tables = sqliteTables();
    // Every statement better-sqlite3 runs goes through a prepared statement's all/get/run/iterate.
    const prepare = client.prepare.bind(client);
    (client as any).prepare = (text: string) => {
      preparedTexts.push(text);
      const statement = prepare(text);
      for (const method of ['all', 'get', 'run', 'iterate'] as const) {
        const original = (statement as any)[method].bind(statement);
        (statement as any)[method] = (...params: unknown[]) => {
          statements.push({ sql: text, params });
          return original(...params);
        };
      }
      return statement;
    };
    return {
      dialect,
      db: drizzleSqlite(client, { schema: schemaOf(tables) }),
      tables,
      statements,
      preparedTexts,
      raw: async (text, params = []) => {
        const statement = prepare(text);
        return statement.reader ? statement.all(...params) : [statement.run(...params)];
      },
      explain: async (text, params) => (prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params) as { detail: string }[]).map((row) => row.detail),
      reset: async () => {
        for (const statement of ddl(dialect)) client.exec(statement);
      },
      close: async () => void client.close(),
    };
  }
  if (dialect === 'mysql') {
    const pool = mysql.createPool({ uri: MYSQL_URL, connectionLimit: 3 });
    const tables = mysqlTables() as unknown as RelationTables;
    const query = pool.query.bind(pool);
    const execute = pool.execute.bind(pool);
    // Tessera runs statements on the callback pool the promise pool wraps (mysql-client.ts): count there.
    const core = (pool as any).pool;
    for (const method of ['query', 'execute']) {
      const original = core[method].bind(core);
      core[method] = (...args: any[]) => {
        statements.push({ sql: typeof args[0] === 'string' ? args[0] : args[0].sql, params: Array.isArray(args[1]) ? args[1] : (args[0].values ?? []) });
        return original(...args);
      };
    }
    return {
      dialect,
      db: drizzleMysql(pool as any, { schema: schemaOf(tables), mode: 'default' }),
      tables,
      statements,
      preparedTexts,
      raw: async (text, params = []) => (await execute(text, params as any[]))[0] as any[],
      explain: async (text, params) => {
        await query('ANALYZE TABLE rel_authors, rel_posts, rel_comments');
        const [rows] = (await query(`EXPLAIN ${text}`, params as any[])) as unknown as [{ table: string; type: string; key: string | null }[]];
        return rows.map((row) => `${row.table} ${row.type} ${row.key ?? '-'}`);
      },
      reset: async () => {
        for (const statement of ddl(dialect)) await query(statement);
      },
      close: () => pool.end(),
    };
  }
  const pool = new Pool({ connectionString: POSTGRES_URL, max: 3 });
  const tables = postgresTables() as unknown as RelationTables;
  const query = pool.query.bind(pool);
  (pool as any).query = (...args: any[]) => {
    const text = typeof args[0] === 'string' ? args[0] : args[0].text;
    statements.push({ sql: text, params: args[1] ?? args[0].values ?? [] });
    if (typeof args[0] === 'string' || args[0].name === undefined) preparedTexts.push(text);
    return (query as any)(...args);
  };
  return {
    dialect,
    db: drizzlePostgres(pool, { schema: schemaOf(tables) }),
    tables,
    statements,
    preparedTexts,
    raw: async (text, params = []) => (await query(text, params)).rows,
    explain: async (text, params) => {
      const client = await pool.connect();
      try {
        await client.query('SET enable_seqscan = off');
        const result = await client.query(`EXPLAIN ${text}`, params);
        await client.query('RESET enable_seqscan');
        return result.rows.map((row: Record<string, string>) => row['QUERY PLAN']);
      } finally {
        client.release();
      }
    },
    reset: async () => {
      await query('DROP TABLE IF EXISTS rel_comments, rel_posts, rel_authors CASCADE');
      for (const statement of ddl(dialect).slice(3)) await query(statement);
    },
    close: () => pool.end(),
  };
}

/** A table with two foreign keys to authors (for the ambiguous-join setup error); never created in the database. */
export function twoKeyTable(dialect: DialectName, authors: any): any {
  if (dialect === 'sqlite') {
    const { sqliteTable, integer } = sqliteCore;
    return sqliteTable('rel_reviews', { id: integer('id').primaryKey(), authorId: integer('author_id').references(() => authors.id), editorId: integer('editor_id').references(() => authors.id) });
  }
  if (dialect === 'mysql') {
    const { mysqlTable, int } = mysqlCore;
    return mysqlTable('rel_reviews', { id: int('id').primaryKey(), authorId: int('author_id').references(() => authors.id), editorId: int('editor_id').references(() => authors.id) });
  }
  const { pgTable, integer } = pgCore;
  return pgTable('rel_reviews', { id: integer('id').primaryKey(), authorId: integer('author_id').references(() => authors.id), editorId: integer('editor_id').references(() => authors.id) });
}
