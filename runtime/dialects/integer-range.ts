// What an integer column can hold, as JSON Schema bounds: each dialect knows its integer types' sizes, and a value
// out of range is refused as VALIDATION_ERROR before any SQL runs (CONTRACT §4).
import type { JsonSchema } from '../json-schema';

/** The integer range of a column holding `bits` bits (null: as many as JSON numbers carry exactly). */
export function withIntegerRange(schema: JsonSchema, bits: number | null, isUnsigned: boolean): JsonSchema {
  if (bits === null) return { ...schema, minimum: isUnsigned ? 0 : Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER };
  if (isUnsigned) return { ...schema, minimum: 0, maximum: 2 ** bits - 1 };
  return { ...schema, minimum: -(2 ** (bits - 1)), maximum: 2 ** (bits - 1) - 1 };
}
