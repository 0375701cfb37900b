// The JSON Schema type, in a file of its own that imports nothing: options, schemas, dialects and the OpenAPI
// builder all name it, and a leaf keeps any of them from pulling in the others.

/** A JSON Schema object, used to override a column's inferred schema. */
export type JsonSchema = Record<string, unknown>;

/** A `pattern` refusing U+0000, which PostgreSQL text cannot hold and SQLite's LIKE takes for the pattern's end. */
export const NO_NUL_PATTERN = '^[^\\u0000]*$';
