// The include and relation-filter inputs as documents publish them (CONTRACT §9), per relation: a to-many relation's
// filter allows some / every / none, a to-one's is / isNot, each operand the related resource's Where; an include
// entry is `true` or the related resource's select, where, orderBy, limit and include. Every resource reached gets its
// where grammar as `Related.<service>.<resource>.<def>`, so the schema stays self-contained and recursion is by $ref.
// Only the documents change: requests are validated by input-schemas.ts and relation-input.ts as before.
import type { CrudRuntime } from '../model/crud-runtime';
import type { JsonSchema } from '../model/options';
import { relationOf, type ResolvedRelation } from '../model/relations';
import { MAX_INCLUDE_DEPTH, TO_MANY_FILTERS, TO_ONE_FILTERS } from '../model/relation-options';
import { crudInputSchema } from './crud-input-docs';
import { reachedResources, relatedDef } from './reached-resources';
import { rewriteRefs } from './schema-walk';

type Defs = Record<string, JsonSchema>;

const LOCAL = '#/$defs/';
/** The where grammar's definitions, taken from a resource's published list input. */
const WHERE_DEFS = /^(Where|WhereNested|Condition\..*)$/;

/** The `$defs` prefix of `target` in `owner`'s schemas: none for the owner itself (a relation may lead back to it). */
function prefixOf(owner: CrudRuntime, target: CrudRuntime): string {
  return target === owner ? '' : `${relatedDef(target)}.`;
}

function relationFilter(relation: ResolvedRelation, operand: JsonSchema): JsonSchema {
  const operators = relation.isMany ? TO_MANY_FILTERS : TO_ONE_FILTERS;
  const kind = relation.isMany ? 'to-many: whether `some`, `every` or `none` of the related rows match' : 'to-one: whether the related row `is` or `isNot` one that matches';
  return {
    type: 'object',
    properties: Object.fromEntries(operators.map((operator) => [operator, operand])),
    additionalProperties: false,
    minProperties: 1,
    description: `A condition through \`${relation.name}\` (${kind} a where of ${relation.target.label}, under its filter policy and scope).`,
  };
}

function includeEntry(relation: ResolvedRelation, list: JsonSchema, ref: (name: string) => JsonSchema): JsonSchema {
  const { target } = relation;
  const listProperties = list.properties as Defs;
  const properties: Defs = { select: listProperties.select, where: ref('Where') };
  if (relation.isMany) {
    properties.orderBy = listProperties.orderBy;
    properties.limit = { type: 'integer', format: 'int32', minimum: 1, maximum: relation.maxLimit, description: `Rows per parent row, 1..${relation.maxLimit}. Default: ${relation.defaultLimit}.` };
  }
  if (target.relations.length > 0) properties.include = ref('Include');
  const kind = relation.isMany ? 'to-many' : 'to-one; no orderBy or limit';
  return {
    description: `${target.label} (${kind}): \`true\`, or its select, where and orderBy as a list of ${target.label} takes them, under its field policy; includes nest at most ${MAX_INCLUDE_DEPTH} deep.`,
    anyOf: [{ const: true }, { type: 'object', properties, additionalProperties: false }],
  };
}

/** What `owner`'s schemas say of resource `rt` (the owner itself, or one its relations reach): where grammar, filters, includes. */
function resourceDefs(owner: CrudRuntime, rt: CrudRuntime): Defs {
  const prefix = prefixOf(owner, rt);
  const list = crudInputSchema(rt.inputSchemas.list!, 'list', rt);
  const published = list.$defs as Defs;
  const defs: Defs = {};
  const rename = (ref: string) => (ref.startsWith(LOCAL) ? LOCAL + prefix + ref.slice(LOCAL.length) : ref);
  for (const [name, def] of Object.entries(published)) if (WHERE_DEFS.test(name)) defs[prefix + name] = rewriteRefs(def, rename);
  const include: Defs = {};
  for (const declaration of rt.relations) {
    const relation = relationOf(rt, declaration.name)!;
    const at = (name: string): JsonSchema => ({ $ref: LOCAL + prefixOf(owner, relation.target) + name });
    if (relation.isFilterable) {
      const filter = `${prefix}RelationFilter.${relation.name}`;
      defs[filter] = relationFilter(relation, at('Where'));
      for (const where of ['Where', 'WhereNested']) (defs[prefix + where].properties as Defs)[relation.name] = { $ref: LOCAL + filter };
    }
    const entry = `${prefix}IncludeEntry.${relation.name}`;
    defs[entry] = includeEntry(relation, crudInputSchema(relation.target.inputSchemas.list!, 'list', relation.target), at);
    include[relation.name] = { $ref: LOCAL + entry };
  }
  if (rt.relations.length > 0) {
    defs[`${prefix}Include`] = {
      type: 'object',
      properties: include,
      additionalProperties: false,
      propertyNames: { enum: rt.relations.map((declaration) => declaration.name) },
      description: `Related rows to add to each ${rt.label} row, by relation name; includes nest at most ${MAX_INCLUDE_DEPTH} deep.`,
    };
  }
  return defs;
}

/** The `$defs` names a schema refers to, directly or through the definitions it reaches. */
function referenced(root: JsonSchema, defs: Defs): Set<string> {
  const found = new Set<string>();
  const visit = (schema: JsonSchema) =>
    rewriteRefs(schema, (ref) => {
      const name = ref.startsWith(LOCAL) ? ref.slice(LOCAL.length) : null;
      if (name !== null && !found.has(name) && defs[name] !== undefined) {
        found.add(name);
        visit(defs[name]);
      }
      return ref;
    });
  visit(root);
  return found;
}

/** Every action of a resource shares these definitions: built once per resource (never mutated once built). */
const RELATION_DEFS = new WeakMap<CrudRuntime, Defs>();

function relationDefs(rt: CrudRuntime): Defs {
  let defs = RELATION_DEFS.get(rt);
  if (defs === undefined) {
    defs = {};
    for (const target of [rt, ...reachedResources(rt).filter((target) => target !== rt)]) Object.assign(defs, resourceDefs(rt, target));
    RELATION_DEFS.set(rt, defs);
  }
  return defs;
}

/** The input with per-relation filter and include definitions, and only the definitions it refers to. */
export function inputWithRelations(input: JsonSchema, rt: CrudRuntime): JsonSchema {
  const { $defs, ...root } = input;
  if ($defs === undefined) return input;
  const all: Defs = { ...($defs as Defs), ...relationDefs(rt) };
  const used = referenced(root, all);
  const defs = Object.fromEntries(Object.entries(all).filter(([name]) => used.has(name)));
  return { ...root, $defs: defs };
}
