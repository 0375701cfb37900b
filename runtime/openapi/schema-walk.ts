// A JSON Schema walker that knows which keywords hold subschemas, so that rewriting `$ref`s or dropping
// private keywords never touches data (`enum`, `const`, `default`) or a property that happens to be named `$ref`.
import type { JsonSchema } from '../model/options';

/** Keywords whose value is one subschema (or, for draft-07 `items`, an array of them). */
const SINGLE = ['not', 'if', 'then', 'else', 'items', 'additionalItems', 'additionalProperties', 'propertyNames', 'contains', 'unevaluatedItems', 'unevaluatedProperties', 'contentSchema'];
/** Keywords whose value is an array of subschemas. */
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
/** Keywords whose value maps names to subschemas (the names are data, never keywords). */
const MAPS = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas', 'dependencies'];

function isSchemaObject(value: unknown): value is JsonSchema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function mapChild(value: unknown, visit: (schema: JsonSchema) => JsonSchema): unknown {
  if (Array.isArray(value)) return value.map((item) => (isSchemaObject(item) ? mapSchema(item, visit) : item));
  return isSchemaObject(value) ? mapSchema(value, visit) : value; // boolean schemas stay as they are
}

/**
 * Copies a schema, applying `visit` to every schema object bottom-up (children first). Keys keep their
 * order; values that are not subschemas are shared, not copied (callers never mutate them).
 */
export function mapSchema(schema: JsonSchema, visit: (schema: JsonSchema) => JsonSchema): JsonSchema {
  const copy: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (SINGLE.includes(key) || LISTS.includes(key)) copy[key] = mapChild(value, visit);
    else if (MAPS.includes(key) && isSchemaObject(value)) {
      const children: JsonSchema = {};
      // dependencies may map a name to a list of property names: that list is data.
      for (const [name, child] of Object.entries(value)) children[name] = isSchemaObject(child) ? mapSchema(child, visit) : child;
      copy[key] = children;
    } else copy[key] = value;
  }
  return visit(copy);
}

/** Rewrites every `$ref` (and `$dynamicRef`) string through `rewrite`. */
export function rewriteRefs(schema: JsonSchema, rewrite: (ref: string) => string): JsonSchema {
  return mapSchema(schema, (node) => {
    for (const key of ['$ref', '$dynamicRef']) if (typeof node[key] === 'string') node[key] = rewrite(node[key] as string);
    return node;
  });
}

/** Resolves a local JSON Pointer (`#/$defs/x`) inside `root`; undefined when it points nowhere. */
export function resolveLocalRef(root: JsonSchema, ref: string): JsonSchema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let target: unknown = root;
  for (const token of ref.slice(1).split('/').slice(1)) {
    const key = decodeURIComponent(token).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isSchemaObject(target) && !Array.isArray(target)) return undefined;
    target = (target as Record<string, unknown>)[key];
  }
  return isSchemaObject(target) ? target : undefined;
}
