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

const relatedDef = (rt: CrudRuntime): string => `Related.${rt.label.replace(/[^A-Za-z0-9._-]/g, '_')}`;

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

/** Every resource the relations reach, transitively (includes nest), in the order first reached. */
function reachable(rt: CrudRuntime): CrudRuntime[] {
  const found: CrudRuntime[] = [];
  const queue = [rt];
  while (queue.length > 0) {
    const current = queue.shift()!;
    for (const declaration of current.relations) {
      const { target } = relationOf(current, declaration.name)!;
      if (!found.includes(target)) {
        found.push(target);
        queue.push(target);
      }
    }
  }
  return found;
}

/** The output of list, get or findOne with the included relations' rows (other actions answer rows without them). */
function outputWithIncludes(output: JsonSchema, rt: CrudRuntime): JsonSchema {
  const defs = { ...(output.$defs as Record<string, JsonSchema>) };
  defs[SELECTED_ROW_DEF] = withRelations(defs[SELECTED_ROW_DEF], rt);
  for (const target of reachable(rt)) defs[relatedDef(target)] = withRelations(publishSchema(rowSchema(target.readable, false)), target);
  return { ...output, $defs: defs };
}

/** The include and relation-filter inputs, each relation named with the resource it reads. */
function inputWithRelations(input: JsonSchema, rt: CrudRuntime): JsonSchema {
  const defs = { ...(input.$defs as Record<string, JsonSchema>) };
  const include = defs.Include;
  if (include !== undefined) {
    const properties: Record<string, JsonSchema> = {};
    for (const declaration of rt.relations) {
      const relation = relationOf(rt, declaration.name)!;
      const kind = relation.isMany ? `to-many; \`limit\` 1..${relation.maxLimit}, default ${relation.defaultLimit}` : 'to-one; no orderBy or limit';
      properties[relation.name] = {
        $ref: '#/$defs/IncludeEntry',
        description: `${relation.target.label} (${kind}): \`true\`, or its select, where and orderBy as a list of ${relation.target.label} takes them, under its field policy.`,
      };
    }
    defs.Include = {
      ...include,
      properties,
      propertyNames: { enum: rt.relations.map((declaration) => declaration.name) },
      description: 'Related rows to add to each row, by relation name; includes nest at most 3 deep.',
    };
  }
  if (defs.RelationFilter !== undefined) {
    defs.RelationFilter = {
      ...defs.RelationFilter,
      description: "A condition through a relation: `is` / `isNot` (to-one) or `some` / `every` / `none` (to-many), each a where of the related resource under its filter policy and scope.",
    };
  }
  return { ...input, $defs: defs };
}

/** The action's documented schemas with relations, for a resource that declares any. */
export function withRelationSchemas(rt: CrudRuntime, action: CrudActionName, schemas: { input: JsonSchema; output: JsonSchema }): { input: JsonSchema; output: JsonSchema } {
  if (rt.relations.length === 0) return schemas;
  const reads = action === 'list' || action === 'get' || action === 'findOne';
  const filters = reads || action === 'count' || action === 'exists';
  return {
    input: filters ? inputWithRelations(schemas.input, rt) : schemas.input,
    output: reads ? outputWithIncludes(schemas.output, rt) : schemas.output,
  };
}
