// What the documents say of relations (CONTRACT §9): the rows list, get and findOne answer carry their included
// relations (a to-one relation a row or null, a to-many one an array of rows of the related resource, nested as
// deep as includes go), and the include and relation-filter inputs name each relation and the resource it reads.
// Schemas stay self-contained: every resource a relation reaches gets a `Related.<service>.<resource>` definition.
import type { CrudActionName } from '../actions';
import type { CrudRuntime } from '../model/crud-runtime';
import type { JsonSchema } from '../model/options';
import { rowSchema, SELECTED_ROW_DEF } from '../model/output-schemas';
import { relationOf, type ResolvedRelation } from '../model/relations';
import { publishSchema } from './published-schema';
import { reachedResources, relatedDef } from './reached-resources';
import { inputWithRelations } from './relation-input-schemas';

function relationProperty(relation: ResolvedRelation): JsonSchema {
  const ref = { $ref: `#/$defs/${relatedDef(relation.target)}` };
  if (relation.isMany) {
    return { type: 'array', maxItems: relation.maxLimit, items: ref, description: `Present when the input includes \`${relation.name}\`: rows of ${relation.target.label} (to-many), read through its policy, access, scope and scrub.` };
  }
  return { anyOf: [ref, { type: 'null' }], description: `Present when the input includes \`${relation.name}\`: the ${relation.target.label} row (to-one), or null when there is none in your scope of it.` };
}

/** A row schema with a property per relation. */
function withRelations(row: JsonSchema, rt: CrudRuntime): JsonSchema {
  const properties = { ...(row.properties as Record<string, JsonSchema>) };
  for (const declaration of rt.relations) properties[declaration.name] = relationProperty(relationOf(rt, declaration.name)!);
  return { ...row, properties };
}

/** The output of list, get or findOne with the included relations' rows (other actions answer rows without them). */
function outputWithIncludes(output: JsonSchema, rt: CrudRuntime): JsonSchema {
  const defs = { ...(output.$defs as Record<string, JsonSchema>) };
  defs[SELECTED_ROW_DEF] = withRelations(defs[SELECTED_ROW_DEF], rt);
  for (const target of reachedResources(rt)) defs[relatedDef(target)] = withRelations(publishSchema(rowSchema(target.readable, false)), target);
  return { ...output, $defs: defs };
}

/** The action's documented schemas with relations, for a resource that declares any. */
export function withRelationSchemas(rt: CrudRuntime, action: CrudActionName, schemas: { input: JsonSchema; output: JsonSchema }): { input: JsonSchema; output: JsonSchema } {
  if (rt.relations.length === 0) return schemas;
  const reads = action === 'list' || action === 'get' || action === 'findOne';
  return {
    // Every input with a where or an include (updateMany and deleteMany filter through relations too).
    input: inputWithRelations(schemas.input, rt),
    output: reads ? outputWithIncludes(schemas.output, rt) : schemas.output,
  };
}
