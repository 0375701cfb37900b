// The published crud input schemas: exactly what ajv validates (input-schemas.ts), with readable `$defs`
// names (Where, WhereNested, Condition.<field>) and the descriptions and defaults a reader needs.
import type { CrudActionName } from '../actions';
import { INCLUDE_DEF, INCLUDE_ENTRY_DEF, MAX_ORDER_BY, MAX_WHERE_DEPTH, NESTED_WHERE_DEF, RELATION_FILTER_DEF, WHERE_DEF } from '../model/where-schemas';
import type { JsonSchema } from '../model/options';
import type { OperatorName } from '../model/operators';
import { MAX_IN_VALUES } from '../model/operators';
import { MAX_WHERE_ITEMS, whereLimitsFor, type WhereLimits } from '../model/where-limits';
import type { DialectName } from '../dialects/dialect';
import { publishInputSchema } from './published-schema';
import { rewriteRefs } from './schema-walk';

const OPERATOR_DESCRIPTIONS: Record<OperatorName, string> = {
  eq: 'equal to the value',
  ne: 'not equal to the value',
  gt: 'greater than the value',
  gte: 'greater than or equal to the value',
  lt: 'less than the value',
  lte: 'less than or equal to the value',
  in: `equal to one of the values (a non-empty list of at most ${MAX_IN_VALUES})`,
  notIn: `equal to none of the values (a non-empty list of at most ${MAX_IN_VALUES})`,
  between: 'between `[low, high]`, inclusive',
  contains: 'contains the text (`%`, `_` and the like match themselves; case sensitivity follows the column collation)',
  startsWith: 'starts with the text',
  endsWith: 'ends with the text',
  isNull: 'is null (the value is `true`)',
  isNotNull: 'is not null (the value is `true`)',
};

/** Component-name-safe text: letters, digits, `.`, `_` and `-` (OpenAPI components/schemas keys). */
export function safeName(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]/g, '_');
}

const WHERE_NAMES: Readonly<Record<string, string>> = {
  [WHERE_DEF]: 'Where',
  [NESTED_WHERE_DEF]: 'WhereNested',
  // CONTRACT §9 (relation-schemas.ts describes them per relation).
  [RELATION_FILTER_DEF]: 'RelationFilter',
  [INCLUDE_DEF]: 'Include',
  [INCLUDE_ENTRY_DEF]: 'IncludeEntry',
};

/** The readable `$defs` name of each ajv def: where → Where, where_nested → WhereNested, condition_title → Condition.title. */
function defNames(defs: Record<string, unknown>): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const def of Object.keys(defs)) {
    let name = WHERE_NAMES[def] ?? `Condition.${safeName(def.replace(/^condition_/, ''))}`;
    // Two keys may differ only in characters a component name cannot hold (`a$b`, `a_b`): number the later one.
    for (let n = 2; taken.has(name); n++) name = `${name.replace(/_\d+$/, '')}_${n}`;
    taken.add(name);
    names.set(def, name);
  }
  return names;
}

/**
 * The where's request-wide limits (issue 32), also as an extension a client or a fuzzer can read: per-array limits
 * are `maxItems`, but a total over the whole tree has no JSON Schema keyword.
 */
export const WHERE_LIMITS_EXTENSION = 'x-tessera-where-limits';

function limitsText(limits: WhereLimits): string {
  return `at most ${MAX_WHERE_ITEMS} items in each AND / OR, and in all at most ${limits.conditions} conditions (one per operator of a field) and ${limits.values} bound values (each item of an in / notIn list is one)`;
}

function describeDefs(defs: Record<string, JsonSchema>, names: Map<string, string>, limits: WhereLimits): Record<string, JsonSchema> {
  const described: Record<string, JsonSchema> = {};
  for (const [def, schema] of Object.entries(defs)) {
    const name = names.get(def)!;
    if (def === RELATION_FILTER_DEF || def === INCLUDE_DEF || def === INCLUDE_ENTRY_DEF) {
      described[name] = schema;
    } else if (def.startsWith('condition_')) {
      const field = def.slice('condition_'.length);
      const properties: Record<string, JsonSchema> = {};
      for (const [operator, value] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
        properties[operator] = { ...value, description: OPERATOR_DESCRIPTIONS[operator as OperatorName] };
      }
      described[name] = { ...schema, description: `The operators allowed on \`${field}\`; several are ANDed.`, properties };
    } else {
      const description =
        def === WHERE_DEF
          ? `Which rows: conditions on filterable fields, each with only the operators its field policy allows, all ANDed; AND / OR / NOT nest at most ${MAX_WHERE_DEPTH} levels deep; ${limitsText(limits)}.`
          : `A where inside AND, OR or NOT (at most ${MAX_WHERE_DEPTH} levels deep); it must name at least one condition.`;
      described[name] = { description, ...schema };
      if (def === WHERE_DEF) described[name][WHERE_LIMITS_EXTENSION] = { maxDepth: MAX_WHERE_DEPTH, maxConditions: limits.conditions, maxValues: limits.values };
    }
  }
  return described;
}

function describeListInput(schema: JsonSchema, defaultLimit: number, maxLimit: number): JsonSchema {
  const properties = { ...(schema.properties as Record<string, JsonSchema>) };
  properties.select = { ...properties.select, description: 'Narrows each row to these readable fields. Default: every readable field.' };
  properties.orderBy = {
    ...properties.orderBy,
    description: `At most ${MAX_ORDER_BY} entries, fields with \`sort: true\`. Rows always end ordered by primary key, so pages are stable.`,
  };
  const entry = properties.orderBy.items as JsonSchema;
  const entryProperties = entry.properties as Record<string, JsonSchema>;
  // Defaults are stated in words, never as `default` (publishInputSchema says why).
  properties.orderBy.items = { ...entry, properties: { ...entryProperties, direction: { ...entryProperties.direction, description: 'Default: `asc`.' } } };
  properties.limit = { ...properties.limit, description: `Page size, 1..${maxLimit}. Default: ${defaultLimit} (the resource's \`defaultLimit\`).` };
  properties.offset = { ...properties.offset, description: 'Rows to skip. Default: 0.' };
  properties.includeTotal = { ...properties.includeTotal, description: 'Adds `total`: every matching row in scope, ignoring limit and offset. Default: false.' };
  if (properties.cursor !== undefined) {
    properties.cursor = {
      ...properties.cursor,
      description:
        'Cursor paging: `true` for the first page, then the `nextCursor` of the page before, with the same where and orderBy. Adds `nextCursor` to the answer. Not with `offset`.',
    };
  }
  return { ...schema, properties };
}

const ACTION_DESCRIPTIONS: Partial<Record<CrudActionName, string>> = {
  create: "The new row's writable fields (`create: true`). A NOT NULL column without a default is required; any other key is refused.",
  update: 'The fields to change (`update: true`), at least one; any other key is refused. Validation error paths point into the action input `{ id, data }` (`/data/<field>`).',
  createMany: 'The rows to create, each as `create` takes it, at most `maxBatch` of them; validation error paths name the item (`/items/3/title`).',
  updateMany: 'A non-empty `where` and the fields to set on every matching row in scope (`update: true`, at least one).',
  deleteMany: 'A non-empty `where`: every matching row in scope is deleted.',
  upsert: "The row's fields as `create` takes them; an existing row gets only the updatable ones (`update: true`). Validation error paths point into `{ id, data }` (`/data/<field>`).",
};

/** CONTRACT §10: update, delete and upsert take the ETag as read; over HTTP it is the If-Match header. */
function describeIfMatch(schema: JsonSchema): JsonSchema {
  return { ...schema, description: 'The ETag of the row as read (or `*`), sent as If-Match: when the row has changed since, nothing is written and the answer is 412 PRECONDITION_FAILED.' };
}

/** The `$defs` key a local ref names: the ref is a URI fragment holding a JSON Pointer (input-schemas.ts escapes both). */
function defOfRef(ref: string): string {
  return decodeURIComponent(ref.slice('#/$defs/'.length)).replace(/~1/g, '/').replace(/~0/g, '~');
}

/** The published input schema of a crud action: what the action validates, annotated; self-contained (`$defs`). */
export function crudInputSchema(
  inputSchema: JsonSchema,
  action: CrudActionName,
  limits: { defaultLimit: number; maxLimit: number; dialect: { name: DialectName } },
): JsonSchema {
  let schema = publishInputSchema(inputSchema);
  const defs = schema.$defs as Record<string, JsonSchema> | undefined;
  if (defs !== undefined) {
    const names = defNames(defs);
    schema = rewriteRefs(schema, (ref) => {
      const def = ref.startsWith('#/$defs/') ? names.get(defOfRef(ref)) : undefined;
      return def === undefined ? ref : `#/$defs/${def}`;
    });
    schema.$defs = describeDefs(schema.$defs as Record<string, JsonSchema>, names, whereLimitsFor(limits.dialect.name));
  }
  if (action === 'list' || action === 'findOne') schema = describeListInput(schema, limits.defaultLimit, limits.maxLimit);
  if (action === 'update') {
    const properties = schema.properties as Record<string, JsonSchema>;
    const isEmpty = Object.keys((properties.data.properties ?? {}) as object).length === 0;
    const description = isEmpty ? 'No field is updatable (`update: true`), so every update is refused.' : ACTION_DESCRIPTIONS.update;
    schema = { ...schema, properties: { id: properties.id, data: { ...properties.data, description }, ifMatch: describeIfMatch(properties.ifMatch) } };
  }
  if (action === 'upsert') {
    const properties = schema.properties as Record<string, JsonSchema>;
    schema = { ...schema, properties: { id: properties.id, data: { ...properties.data, description: ACTION_DESCRIPTIONS.upsert }, ifMatch: describeIfMatch(properties.ifMatch) } };
  }
  if (action === 'delete') {
    const properties = schema.properties as Record<string, JsonSchema>;
    schema = { ...schema, properties: { ...properties, ifMatch: describeIfMatch(properties.ifMatch) } };
  }
  if (action === 'create' || action === 'createMany' || action === 'updateMany' || action === 'deleteMany') schema = { description: ACTION_DESCRIPTIONS[action], ...schema };
  return schema;
}
