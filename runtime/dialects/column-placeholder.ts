// A placeholder that binds like an inline value of its column: drizzle maps an inline value through the
// column's encoder except for null, but maps a placeholder's value always (a null date would throw, a null
// SQLite boolean would become false, a null jsonb the JSON text 'null'). This encoder lets null through.
import { Param, sql, type Column, type DriverValueEncoder, type SQL } from 'drizzle-orm';

const encoders = new WeakMap<Column, DriverValueEncoder<unknown, unknown>>();

function nullSafeEncoder(column: Column): DriverValueEncoder<unknown, unknown> {
  let encoder = encoders.get(column);
  if (encoder === undefined) {
    encoder = { mapToDriverValue: (value) => (value === null ? null : column.mapToDriverValue(value)) };
    encoders.set(column, encoder);
  }
  return encoder;
}

/** `:name`, its value mapped by the column's encoder as an inline value would be. */
export function columnPlaceholder(name: string, column: Column): SQL {
  return sql`${new Param(sql.placeholder(name), nullSafeEncoder(column))}`;
}
