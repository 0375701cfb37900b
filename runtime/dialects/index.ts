// Picks the dialect of a drizzle database and checks that a table belongs to the same dialect.
import { is } from 'drizzle-orm';
import { MySqlDatabase, MySqlTable } from 'drizzle-orm/mysql-core';
import { PgDatabase, PgTable } from 'drizzle-orm/pg-core';
import { BaseSQLiteDatabase, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { Dialect } from './dialect';
import { mysqlDialect } from './mysql';
import { postgresDialect } from './postgres';
import { sqliteDialect } from './sqlite';

/** The dialect of a drizzle database, or undefined when it is not one Tessera supports. */
export function dialectOfDatabase(db: unknown): Dialect | undefined {
  if (is(db, BaseSQLiteDatabase)) return (db as any).resultKind === 'sync' ? sqliteDialect : undefined;
  if (is(db, MySqlDatabase)) return mysqlDialect;
  if (is(db, PgDatabase)) return postgresDialect;
  return undefined;
}

/** Whether a drizzle table was declared for this dialect (sqliteTable, mysqlTable, pgTable). */
export function tableMatchesDialect(table: unknown, dialect: Dialect): boolean {
  if (dialect.name === 'sqlite') return is(table, SQLiteTable);
  if (dialect.name === 'mysql') return is(table, MySqlTable);
  return is(table, PgTable);
}

export type { Dialect, DialectName } from './dialect';
