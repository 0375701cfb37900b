// createMany's INSERT on PostgreSQL as one text for every batch size: each column's values bound as one array and
// unnested (`INSERT … SELECT … FROM unnest($1::int4[], $2::text[], …)`). One named statement serves 1 to maxBatch
// rows, and PostgreSQL parses 6 parameters where the VALUES list of 100 rows had 600 (issue 26).
import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import type { Column, Table } from 'drizzle-orm';

/**
 * The array element type of each column kind whose values travel as text PostgreSQL reads back exactly, without
 * the column's size: the INSERT's assignment then checks it (a too long varchar fails as it would in VALUES, where
 * an explicit cast to varchar(n) would cut it). Arrays, enums, geometry, network and custom columns are not here.
 */
const ELEMENT_TYPES: Readonly<Record<string, (column: Column) => string>> = {
  PgSmallInt: () => 'int2',
  PgSmallSerial: () => 'int2',
  PgInteger: () => 'int4',
  PgSerial: () => 'int4',
  PgBigInt53: () => 'int8',
  PgBigInt64: () => 'int8',
  PgBigSerial53: () => 'int8',
  PgBigSerial64: () => 'int8',
  PgNumeric: () => 'numeric',
  PgNumericNumber: () => 'numeric',
  PgNumericBigInt: () => 'numeric',
  PgReal: () => 'float4',
  PgDoublePrecision: () => 'float8',
  PgBoolean: () => 'bool',
  PgText: () => 'text',
  PgVarchar: () => 'varchar',
  PgChar: () => 'bpchar',
  PgUUID: () => 'uuid',
  PgJson: () => 'json',
  PgJsonb: () => 'jsonb',
  PgDate: () => 'date',
  PgDateString: () => 'date',
  PgTime: (column) => (withTimeZone(column) ? 'timetz' : 'time'),
  PgTimestamp: (column) => (withTimeZone(column) ? 'timestamptz' : 'timestamp'),
  PgTimestampString: (column) => (withTimeZone(column) ? 'timestamptz' : 'timestamp'),
  PgInterval: () => 'interval',
};

function withTimeZone(column: Column): boolean {
  return (column as { withTimezone?: boolean }).withTimezone === true;
}

export function quoteIdentifier(identifier: string): string {
  return `"${identifier.replace(/"/g, '""')}"`;
}

/** `"schema"."table"`, each part quoted (the schema only when the table names one). */
export function qualifiedName(table: Table): string {
  const { name, schema } = getTableConfig(table as PgTable);
  return schema === undefined ? quoteIdentifier(name) : `${quoteIdentifier(schema)}.${quoteIdentifier(name)}`;
}

/**
 * The INSERT of any number of rows into `columns`, in the order of the unnested arrays (WITH ORDINALITY: numbered
 * keys ascend in input order, as in a VALUES list), RETURNING `returning` in order; null when a column has no
 * array form here (the caller keeps the VALUES list).
 */
export function postgresArrayInsert(table: Table, columns: readonly Column[], returning: readonly Column[]): string | null {
  const types: string[] = [];
  for (const column of columns) {
    const type = ELEMENT_TYPES[column.columnType]?.(column);
    if (type === undefined) return null;
    types.push(type);
  }
  const names = columns.map((column) => quoteIdentifier(column.name)).join(', ');
  const aliases = columns.map((_, index) => `c${index + 1}`);
  const arrays = types.map((type, index) => `$${index + 1}::${type}[]`).join(', ');
  const answer = returning.length === 0 ? '' : ` returning ${returning.map((column) => quoteIdentifier(column.name)).join(', ')}`;
  return (
    `insert into ${qualifiedName(table)} (${names}) select ${aliases.join(', ')} ` +
    `from unnest(${arrays}) with ordinality as u(${aliases.join(', ')}, n) order by n${answer}`
  );
}
