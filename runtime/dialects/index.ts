// Picks the dialect of a drizzle database and checks that a table belongs to the same dialect. Each dialect's module,
// and the drizzle core it needs, loads when the first database of that dialect is defined: an application on SQLite
// never loads mysql-core or pg-core, about 80 ms of every start (issue 16).
import { entityKind } from 'drizzle-orm';
import type { Dialect } from './dialect';
import { primaryOf } from './read-replicas';

/**
 * Whether `value` is an instance of the drizzle class named `kind` (`MySqlDatabase`), or of a subclass: drizzle's own
 * `is()` without the class itself, so its module need not load to tell.
 */
function isEntity(value: unknown, kind: string): boolean {
  if (typeof value !== 'object' || value === null) return false;
  for (let cls = Object.getPrototypeOf(value)?.constructor; cls; cls = Object.getPrototypeOf(cls)) {
    if (entityKind in cls && (cls as Record<symbol, unknown>)[entityKind] === kind) return true;
  }
  return false;
}

/** The dialect of a drizzle database (a withReplicas one's is its primary's), or undefined when it is not one Tessera supports. */
export function dialectOfDatabase(database: unknown): Dialect | undefined {
  const db = primaryOf(database);
  if (isEntity(db, 'BaseSQLiteDatabase')) return (db as { resultKind?: string }).resultKind === 'sync' ? (require('./sqlite') as typeof import('./sqlite')).sqliteDialect : undefined;
  if (isEntity(db, 'MySqlDatabase')) return (require('./mysql') as typeof import('./mysql')).mysqlDialect;
  if (isEntity(db, 'PgDatabase')) return (require('./postgres') as typeof import('./postgres')).postgresDialect;
  return undefined;
}

/** The drizzle table class of each dialect (sqliteTable, mysqlTable, pgTable), by its entity kind. */
const TABLE_KINDS = Object.freeze({ sqlite: 'SQLiteTable', mysql: 'MySqlTable', postgres: 'PgTable' });

/** Whether a drizzle table was declared for this dialect (sqliteTable, mysqlTable, pgTable). */
export function tableMatchesDialect(table: unknown, dialect: Dialect): boolean {
  return isEntity(table, TABLE_KINDS[dialect.name]);
}

export type { Dialect, DialectName } from './dialect';
