// PostgreSQL's included rows inside the parent's statement (nested-rows.ts): each level a correlated subquery building
// JSON arrays. Integers up to 32 bits, text, booleans and uuids travel as JSON's own values, which JSON.parse gives as
// the driver would and their columns' decoders keep as they are: nothing to decode per value. Other values travel as
// their type's text output (`::text`, what the wire would carry), never as JSON numbers or JSON timestamps: a bigint
// past 2^53 would lose digits and a timestamp would change form. They are decoded by the parser pg gives that type's
// OID (Drizzle's type settings: dates and timestamps stay text), then by the column's own decoder, so a value reads
// the same as from a flat select.
import { sql, type Column, type SQL } from 'drizzle-orm';
import type { NestedLevel, NestedRows } from './nested-rows';
import { DRIZZLE_TYPES } from './postgres-transactions';
import { columnDecoder } from './prepared-select';
import { timestampDecoder } from './postgres-timestamps';

/**
 * The type OID of each Drizzle column class whose `::text` is its type's output function (an I/O conversion cast;
 * boolean's cast says `true` where the output says `t`, and pg's parser reads both). Others (char(n), whose cast
 * drops trailing blanks, enums, arrays, custom types) are not carried: such an include takes the per-level path.
 */
const TYPE_OIDS: Readonly<Record<string, number>> = {
  PgSmallInt: 21,
  PgSmallSerial: 21,
  PgInteger: 23,
  PgSerial: 23,
  PgBigInt53: 20,
  PgBigInt64: 20,
  PgBigSerial53: 20,
  PgBigSerial64: 20,
  PgReal: 700,
  PgDoublePrecision: 701,
  PgNumeric: 1700,
  PgNumericNumber: 1700,
  PgNumericBigInt: 1700,
  PgText: 25,
  PgVarchar: 1043,
  PgBoolean: 16,
  PgUUID: 2950,
  PgDate: 1082,
  PgDateString: 1082,
  PgInterval: 1186,
  PgJson: 114,
  PgJsonb: 3802,
};

/** Column classes whose JSON value (json_build_array's) is the driver's value, which their decoder answers as is. */
const JSON_NATIVE: ReadonlySet<string> = new Set(['PgSmallInt', 'PgSmallSerial', 'PgInteger', 'PgSerial', 'PgText', 'PgVarchar', 'PgBoolean', 'PgUUID']);

function typeOid(column: Column): number | undefined {
  const withTimezone = (column as { withTimezone?: boolean }).withTimezone === true;
  if (column.columnType === 'PgTimestamp' || column.columnType === 'PgTimestampString') return withTimezone ? 1184 : 1114;
  if (column.columnType === 'PgTime') return withTimezone ? 1266 : 1083;
  return TYPE_OIDS[column.columnType];
}

const decoders = new WeakMap<Column, (value: unknown) => unknown>();

function rowOf(level: NestedLevel): SQL {
  return sql`select json_build_array(${sql.join(level.values as SQL[], sql`, `)}) from ${level.table} where ${level.condition} order by ${sql.join(level.order as SQL[], sql`, `)}`;
}

export const postgresNestedRows: NestedRows = {
  maxValues: 100,

  carries: (column) => typeOid(column) !== undefined,
  value: (column) => (JSON_NATIVE.has(column.columnType) ? sql`${column}` : sql`${column}::text`),

  decoder(column) {
    if (JSON_NATIVE.has(column.columnType)) return null;
    let decode = decoders.get(column);
    if (decode === undefined) {
      const parse = DRIZZLE_TYPES.getTypeParser(typeOid(column)!, 'text') as (text: string) => unknown;
      const decodeParsed = columnDecoder(column, timestampDecoder);
      decode = (value) => decodeParsed(parse(value as string));
      decoders.set(column, decode);
    }
    return decode;
  },

  toOne: (level) => sql`(${rowOf(level)} limit 1)`,
  // ARRAY(subquery) keeps the subquery's ORDER BY; no row gives an empty array, so `[]`.
  toMany: (level, limit) => sql`array_to_json(array(${rowOf(level)} limit ${limit}))`,
};
