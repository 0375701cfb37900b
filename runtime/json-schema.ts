// The JSON Schema type, in a file of its own that imports nothing: options, schemas, dialects and the OpenAPI
// builder all name it, and a leaf keeps any of them from pulling in the others.

/** A JSON Schema object, used to override a column's inferred schema. */
export type JsonSchema = Record<string, unknown>;
