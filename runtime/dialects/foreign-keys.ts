// The foreign keys a Drizzle table declares (`.references()` or `foreignKey()`), read through each dialect's own
// getTableConfig: the one place relations (model/relations.ts) learn a join when no Drizzle relation names it.
import type { Column, Table } from 'drizzle-orm';
import type { DialectName } from './dialect';

/** One foreign key: the table's columns and the columns of the table they reference. */
export interface ForeignKeyLink {
  readonly columns: readonly Column[];
  readonly foreignTable: Table;
  readonly foreignColumns: readonly Column[];
}

interface ForeignKeyConfig {
  foreignKeys: { reference(): { columns: Column[]; foreignTable: Table; foreignColumns: Column[] } }[];
}

/** Each dialect's getTableConfig, loaded with that dialect (an application on SQLite never loads pg-core). */
function tableConfigOf(dialect: DialectName): (table: Table) => ForeignKeyConfig {
  switch (dialect) {
    case 'sqlite':
      return (require('drizzle-orm/sqlite-core') as { getTableConfig: (table: Table) => ForeignKeyConfig }).getTableConfig;
    case 'mysql':
      return (require('drizzle-orm/mysql-core') as { getTableConfig: (table: Table) => ForeignKeyConfig }).getTableConfig;
    case 'postgres':
      return (require('drizzle-orm/pg-core') as { getTableConfig: (table: Table) => ForeignKeyConfig }).getTableConfig;
  }
}

export function foreignKeysOf(dialect: DialectName, table: Table): ForeignKeyLink[] {
  return tableConfigOf(dialect)(table).foreignKeys.map((key) => {
    const reference = key.reference();
    return { columns: reference.columns, foreignTable: reference.foreignTable, foreignColumns: reference.foreignColumns };
  });
}
