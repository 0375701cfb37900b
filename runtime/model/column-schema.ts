// How a drizzle column travels as JSON: its JSON Schema and the codec between JSON and driver values
// (CONTRACT §2 Row: Date as ISO-8601, bigint as decimal string, binary as base64).
import type { Column } from 'drizzle-orm';
import type { JsonSchema } from '../json-schema';

/** Converts one value between its JSON form and what drizzle expects; null when the JSON form is the value. */
export interface ColumnCodec {
  /** The key of this codec in COLUMN_CODECS (generated code reaches codecs by name). */
  readonly name: 'date' | 'bigint' | 'binary';
  decode(json: any): unknown;
  encode(value: any): unknown;
}

const dateCodec: ColumnCodec = {
  name: 'date',
  decode: (json: string) => new Date(json),
  encode: (value: Date | string) => (value instanceof Date ? value.toISOString() : value),
};
const bigintCodec: ColumnCodec = {
  name: 'bigint',
  decode: (json: string) => BigInt(json),
  encode: (value: bigint) => value.toString(),
};
const binaryCodec: ColumnCodec = {
  name: 'binary',
  decode: (json: string) => Buffer.from(json, 'base64'),
  encode: (value: Uint8Array) => Buffer.from(value).toString('base64'),
};

export const COLUMN_CODECS = Object.freeze({ date: dateCodec, bigint: bigintCodec, binary: binaryCodec });

/** A column a where clause may name, with the codec that turns its JSON values into driver values. */
export interface WhereColumn {
  readonly column: Column;
  readonly codec: ColumnCodec | null;
}

/** The columns a where may name, by property name: a resource's filterable fields, or every column for a scope. */
export type WhereColumns = Record<string, WhereColumn>;

export function codecOf(column: Column): ColumnCodec | null {
  switch (column.dataType) {
    case 'date':
      return dateCodec;
    case 'bigint':
      return bigintCodec;
    case 'buffer':
      return binaryCodec;
    default:
      return null;
  }
}

/** Integer column types across the three dialects (int, smallint, serial, integer, ...). */
const INTEGER_TYPE = /Int|Serial/;

/** The JSON Schema of one column value, without null (nullability is added where it applies). */
export function inferColumnSchema(column: Column): JsonSchema {
  switch (column.dataType) {
    case 'string': {
      const schema: JsonSchema = { type: 'string' };
      if (column.enumValues !== undefined && column.enumValues.length > 0) schema.enum = [...column.enumValues];
      const length = (column as { length?: number }).length;
      if (typeof length === 'number' && length > 0) schema.maxLength = length;
      if (column.columnType === 'PgUUID') schema.format = 'uuid';
      return schema;
    }
    case 'number':
      return { type: INTEGER_TYPE.test(column.columnType) ? 'integer' : 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date-time' };
    case 'bigint':
      return { type: 'string', pattern: '^-?[0-9]+$' };
    case 'buffer':
      // Buffer.from(x, 'base64') skips characters it does not know: refuse them instead.
      return { type: 'string', contentEncoding: 'base64', pattern: '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$' };
    case 'array':
      return { type: 'array' };
    default:
      // json and custom columns accept any JSON value.
      return {};
  }
}

/** Text column types across the three dialects (text, varchar, char); not uuid, numeric or string-mode dates. */
const TEXT_TYPE = /(Text|VarChar|Varchar|Char)$/;

/** Whether the column holds text (spec §2.4 rule 1, for contains / startsWith / endsWith). */
export function isStringColumn(column: Column): boolean {
  return column.dataType === 'string' && TEXT_TYPE.test(column.columnType);
}
