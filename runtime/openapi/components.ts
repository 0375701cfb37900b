// components/schemas of the OpenAPI document: turns self-contained schemas (local `$defs` and `#` refs)
// into named components, so `#/$defs/Where` of shop.notes becomes `#/components/schemas/shop.notes.Where`.
import type { OpenAPIV3_1 } from 'openapi-types';
import type { JsonSchema } from '../model/options';
import { rewriteRefs } from './schema-walk';

const COMPONENTS = '#/components/schemas/';

export function componentRef(name: string): JsonSchema {
  return { $ref: COMPONENTS + name };
}

/**
 * A JSON Schema 2020-12 object as openapi-types' Schema Object: OpenAPI 3.1 takes any such schema, but the
 * types only know the keywords they list (and not a `$ref` beside others), so Tessera's schemas cross here.
 */
export function schemaObject(schema: JsonSchema): OpenAPIV3_1.SchemaObject {
  return schema as OpenAPIV3_1.SchemaObject;
}

/** Named schemas in the order they were added (the document's route order, so one resource's are contiguous). */
export class ComponentSchemas {
  readonly #schemas: Record<string, JsonSchema> = {};

  /** Adds a schema under a fixed name (the first one added under a name wins). */
  set(name: string, schema: JsonSchema): JsonSchema {
    if (!Object.hasOwn(this.#schemas, name)) this.#schemas[name] = schema;
    return componentRef(name);
  }

  /**
   * Adds a crud schema built by Tessera: each `$defs` entry becomes the component `<owner>.<def>` (their
   * names are component-safe by construction). The root becomes `<owner>.<kind>` and is referenced, or is
   * returned inline when `kind` is null.
   */
  addLifted(owner: string, schema: JsonSchema, kind: string | null): JsonSchema {
    const { $defs, ...root } = schema;
    const rewrite = (ref: string) => (ref.startsWith('#/$defs/') ? `${COMPONENTS}${owner}.${ref.slice('#/$defs/'.length)}` : ref);
    for (const [def, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) this.set(`${owner}.${def}`, rewriteRefs(definition, rewrite));
    const rewritten = rewriteRefs(root, rewrite);
    return kind === null ? rewritten : this.set(`${owner}.${kind}`, rewritten);
  }

  /**
   * Adds a user's schema whole under `name`. Its references to its own root (`#`, `#/$defs/x`,
   * `#/properties/a`) are re-pointed into the component; anchors (`#name`) and a schema with its own
   * `$id` resolve as they are.
   */
  addWhole(name: string, schema: JsonSchema): JsonSchema {
    if (typeof schema.$id === 'string') return this.set(name, schema);
    const rewritten = rewriteRefs(schema, (ref) => (ref === '#' || ref.startsWith('#/') ? COMPONENTS + name + ref.slice(1) : ref));
    return this.set(name, rewritten);
  }

  toJSON(): Record<string, OpenAPIV3_1.SchemaObject> {
    return this.#schemas as Record<string, OpenAPIV3_1.SchemaObject>;
  }
}
