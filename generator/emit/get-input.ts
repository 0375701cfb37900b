// get's input as its HTTP route carries it (CONTRACT §9): `?include=author,comments` names relations, each read with
// its defaults, so the contract (and the client typed from it) offers `include: { author?: true, … }` and nothing more.
import type { JsonSchema } from '../../runtime/json-schema';

type Schema = Record<string, unknown>;

/** Whether a schema still points into its `$defs` (`#/$defs/…`) anywhere. */
function hasLocalRef(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.some(hasLocalRef);
  if (schema === null || typeof schema !== 'object') return false;
  return Object.entries(schema).some(([key, value]) => (key === '$ref' ? String(value).startsWith('#/$defs/') : hasLocalRef(value)));
}

/** get's input with `include` as relation names set to `true`; the include definitions go when nothing else needs them. */
export function getInputOverHttp(input: JsonSchema): JsonSchema {
  const properties = input.properties as Record<string, Schema> | undefined;
  const include = properties?.include;
  if (include === undefined) return input;
  const defs = (input.$defs ?? {}) as Record<string, Schema>;
  const names = Object.keys((defs.Include?.properties ?? {}) as Schema);
  const relations = Object.fromEntries(names.map((relation) => [relation, { const: true }]));
  const byName: JsonSchema = {
    type: 'object',
    properties: relations,
    additionalProperties: false,
    description: 'Relations to add to the row, each with its defaults; sent as `?include=a,b` (list and findOne take their options).',
  };
  const { $defs, ...root }: JsonSchema = { ...input, properties: { ...properties, include: byName } };
  return hasLocalRef(root) ? { ...root, $defs } : root;
}
