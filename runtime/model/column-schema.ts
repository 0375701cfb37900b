// How a drizzle column travels as JSON: its JSON Schema and the codec between JSON and driver values
// (CONTRACT §2 Row: Date as ISO-8601, bigint as decimal string, binary as base64).
import type { Column } from 'drizzle-orm';
import type { JsonSchema } from '../json-schema';
import { isoDate } from './iso-date';
import { MESSAGES_KEYWORD } from '../validation';
import { decimalTextSchema, integerDigitsOf } from '../dialects/number-text';

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
  encode: (value: Date | string) => (value instanceof Date ? isoDate(value) : value),
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

/** What a date the validator refuses is told (validation-runtime.ts, storedDateTime: the instants a date column takes). */
const DATE_TIME_MESSAGE = '{path} must be an RFC 3339 date-time from 0001-01-01 to 9999-12-31 in UTC, such as "2024-05-01T12:00:00Z"';

/** An ISO-8601 date-time as JSON carries it, nanoseconds and offset included (`2024-01-01T00:00:00.123456789+05:30` is 35). */
const DATE_TIME_MAX_LENGTH = 64;

/**
 * The bounds of a value whose column declares none (a text column without a length, an array column), so
 * every string and array of the documents has one (OWASP API4); docs/resources.md states them. A string of
 * DEFAULT_MAX_LENGTH characters is already more than the default 1 MiB bodyLimit, so under the defaults the
 * body limit answers first; a larger bodyLimit needs a field `schema` with its own maxLength.
 */
export const DEFAULT_MAX_LENGTH = 1_048_576;
export const DEFAULT_MAX_ITEMS = 10_000;

function hasType(schema: JsonSchema, type: string): boolean {
  return schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type));
}

/**
 * `schema` (a column's, or the field's `schema` override) with a bound on its string length or array size
 * when it has none: the column's own (`inferred`: a varchar's length) where known, else the defaults above.
 */
export function withValueBounds(schema: JsonSchema, inferred: JsonSchema = schema): JsonSchema {
  const isUnbounded = schema.enum === undefined && schema.const === undefined;
  if (isUnbounded && hasType(schema, 'string') && schema.maxLength === undefined) {
    return { ...schema, maxLength: typeof inferred.maxLength === 'number' ? inferred.maxLength : DEFAULT_MAX_LENGTH };
  }
  if (isUnbounded && hasType(schema, 'array') && schema.maxItems === undefined) {
    return { ...schema, maxItems: typeof inferred.maxItems === 'number' ? inferred.maxItems : DEFAULT_MAX_ITEMS };
  }
  return schema;
}

/** Numeric / decimal column types in string mode across the three dialects (their values travel as text). */
const DECIMAL_TYPE = /^(PgNumeric|MySqlDecimal|SQLiteNumeric)$/;
/** Integer column types across the three dialects (int, smallint, serial, integer, ...). */
const INTEGER_TYPE = /Int|Serial/;

/** The JSON Schema of one column value, without null (nullability is added where it applies). */
export function inferColumnSchema(column: Column): JsonSchema {
  switch (column.dataType) {
    case 'string': {
      if (DECIMAL_TYPE.test(column.columnType)) return decimalTextSchema(integerDigitsOf(column as { precision?: number; scale?: number }));
      const schema: JsonSchema = { type: 'string' };
      if (column.enumValues !== undefined && column.enumValues.length > 0) schema.enum = [...column.enumValues];
      const length = (column as { length?: number }).length;
      if (typeof length === 'number' && length > 0) schema.maxLength = length;
      if (column.columnType === 'PgUUID') Object.assign(schema, { format: 'uuid', maxLength: 36 });
      return schema;
    }
    case 'number':
      return { type: INTEGER_TYPE.test(column.columnType) ? 'integer' : 'number' };
    case 'boolean':
      return { type: 'boolean' };
    case 'date':
      return { type: 'string', format: 'date-time', maxLength: DATE_TIME_MAX_LENGTH, [MESSAGES_KEYWORD]: { format: DATE_TIME_MESSAGE } };
    case 'bigint':
      // 20 characters hold every 64-bit integer, signed (-9223372036854775808) or not (18446744073709551615).
      return { type: 'string', pattern: '^-?[0-9]+$', maxLength: 20 };
    case 'buffer':
      // Buffer.from(x, 'base64') skips characters it does not know: refuse them instead.
      return { type: 'string', contentEncoding: 'base64', pattern: '^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$' };
    case 'array': {
      // A PostgreSQL array column: its items are values of its base column.
      const base = (column as { baseColumn?: Column }).baseColumn;
      return { type: 'array', items: base === undefined ? {} : withValueBounds(inferColumnSchema(base)) };
    }
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
