// The longest If-Match (in-process `ifMatch`) a conditional write takes (CONTRACT §10), in a module of its own: the
// input schema and the HTTP input reader both need it, and the reader must not load the schemas (and ajv) with it.
export const MAX_IF_MATCH_LENGTH = 1024;
