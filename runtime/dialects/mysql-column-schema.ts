// The JSON Schema bounds of a MySQL / MariaDB column's values: what its type holds, so that validation refuses a
// value the database would (CONTRACT §4: naming the field, where the database's refusal cannot).
import type { Column } from 'drizzle-orm';
import type { JsonSchema } from '../json-schema';
import { withIntegerRange } from './integer-range';
import { decimalTextSchema, int64TextSchema } from './number-text';

/** Bits of the sized integer types; others (bigint in number mode, serial) hold what JSON numbers carry. */
const INTEGER_BITS: Record<string, number> = { MySqlTinyInt: 8, MySqlSmallInt: 16, MySqlMediumInt: 24, MySqlInt: 32 };

/** Byte capacity of the TEXT types. A character takes at least one byte, so more characters never fit;
 * multi-byte text that still overflows is caught by errno 1406. */
const TEXT_BYTES: Record<string, number> = { tinytext: 255, text: 65535, mediumtext: 16777215, longtext: 4294967295 };

/** Dialect.refineColumnSchema on MySQL / MariaDB. */
export function refineMysqlColumnSchema(column: Column, schema: JsonSchema): JsonSchema {
  const isUnsigned = () => column.getSQLType().includes('unsigned');
  if (schema.type === 'integer') return withIntegerRange(schema, INTEGER_BITS[column.columnType] ?? null, isUnsigned());
  if (column.columnType === 'MySqlBigInt64') return int64TextSchema(isUnsigned());
  // A decimal declared without a precision is decimal(10, 0).
  if (column.columnType === 'MySqlDecimal' && (column as { precision?: number }).precision === undefined) return decimalTextSchema(10);
  const textBytes = column.columnType === 'MySqlText' ? TEXT_BYTES[(column as { textType?: string }).textType ?? ''] : undefined;
  if (textBytes !== undefined && schema.maxLength === undefined) return { ...schema, maxLength: textBytes };
  return schema;
}
