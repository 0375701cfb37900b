// What an ajv error needs for Tessera's messages, found after the fact: the schema that raised it (its
// x-messages templates) and the value it refused. ajv could keep both on every error (`verbose`), but that
// doubles the size of every validator it writes; a failed validation is the rare path, so it is looked up here,
// by walking the validation document along the error's instance path.
import type { ErrorObject } from 'ajv/dist/2020';
import type { JsonSchema } from '../json-schema';

function tokens(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The `$defs` entry a local ref names (`#/$defs/condition_a%2Fb` → `condition_a/b`). */
function resolve(schema: JsonSchema, defs: Record<string, JsonSchema>): JsonSchema {
  let current = schema;
  for (let hops = 0; hops < 8 && typeof current.$ref === 'string' && current.$ref.startsWith('#/$defs/'); hops++) {
    const name = decodeURIComponent(current.$ref.slice('#/$defs/'.length)).replace(/~1/g, '/').replace(/~0/g, '~');
    const next = defs[name];
    if (next === undefined) break;
    current = next;
  }
  return current;
}

/** The schema that validates the value at `pointer` inside an input that `root` validates. */
function schemaAt(root: JsonSchema, pointer: string, defs: Record<string, JsonSchema>): JsonSchema {
  let schema = resolve(root, defs);
  for (const token of tokens(pointer)) {
    const properties = schema.properties as Record<string, JsonSchema> | undefined;
    if (typeof schema.items === 'object' && schema.items !== null && /^(0|[1-9][0-9]*)$/.test(token)) schema = schema.items as JsonSchema;
    else if (properties !== undefined && Object.hasOwn(properties, token)) schema = properties[token];
    else if (typeof schema.additionalProperties === 'object' && schema.additionalProperties !== null) schema = schema.additionalProperties as JsonSchema;
    else return schema;
    schema = resolve(schema, defs);
  }
  return schema;
}

function valueAt(data: unknown, pointer: string): unknown {
  let value = data;
  for (const token of tokens(pointer)) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, token)) return undefined;
    value = (value as Record<string, unknown>)[token];
  }
  return value;
}

/** `errors` with `parentSchema` and `data` filled in from the document (`root` is the action's input schema). */
export function withErrorContext(errors: readonly ErrorObject[], root: JsonSchema, defs: Record<string, JsonSchema>, data: unknown): ErrorObject[] {
  return errors.map((error) => ({ ...error, parentSchema: error.parentSchema ?? schemaAt(root, error.instancePath, defs), data: error.data ?? valueAt(data, error.instancePath) }));
}
