// The JSON Schemas of the eight actions' inputs (CONTRACT §2), derived from the field models. They are
// what ajv validates, and (later) what the OpenAPI document publishes, so both say the same thing.
import type { CrudActionName, OptInActionName } from '../actions';
import { MAX_IN_VALUES, OPERATORS, type OperatorValueKind } from './operators';
import { MAX_WHERE_ITEMS } from './where-limits';
import { MESSAGES_KEYWORD } from '../validation';
import { MAX_CURSOR_LENGTH } from './cursor-length';
import { DEFAULT_MAX_LENGTH } from './column-schema';
import type { FieldModel } from './field-policy';
import type { JsonSchema } from '../json-schema';
import { RELATION_FILTERS, type RelationDeclaration } from './relation-options';

/** CONTRACT §2: AND / OR / NOT nest at most this deep. */
export const MAX_WHERE_DEPTH = 5;
/** CONTRACT §2: at most this many orderBy entries. */
export const MAX_ORDER_BY = 5;

export interface InputSchemaOptions {
  readonly fields: readonly FieldModel[];
  /** The primary key value's schema (the key need not be a listed field). */
  readonly idSchema: JsonSchema;
  readonly maxLimit: number;
  /** createMany's largest batch. */
  readonly maxBatch: number;
  /** The primary key's property name (upsert takes it from the path). */
  readonly pkKey: string;
  /** The opt-in actions of CONTRACT §10 that are on: only they get an input schema. */
  readonly optIn: readonly CrudActionName[];
  /** CONTRACT §9: the relations `include` may name, and those with `filter: true` a where may filter through. */
  readonly relations: readonly RelationDeclaration[];
}

/** Every action's input schema; the opt-in actions of CONTRACT §10 only when on (so documents and bundles stay as they were). */
export type InputSchemas = Record<Exclude<CrudActionName, OptInActionName>, JsonSchema> & Partial<Record<OptInActionName, JsonSchema>>;

/** The value schema with null allowed, for nullable columns. */
export function withNull(schema: JsonSchema): JsonSchema {
  if (Object.keys(schema).length === 0) return schema; // already any value
  if (typeof schema.type === 'string') {
    const nullable: JsonSchema = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) nullable.enum = [...schema.enum, null];
    return nullable;
  }
  return { anyOf: [schema, { type: 'null' }] };
}

function operatorValueSchema(kind: OperatorValueKind, valueSchema: JsonSchema): JsonSchema {
  switch (kind) {
    case 'scalar':
      return valueSchema;
    case 'list':
      return { type: 'array', minItems: 1, maxItems: MAX_IN_VALUES, items: valueSchema };
    case 'pair':
      return { type: 'array', minItems: 2, maxItems: 2, items: valueSchema };
    case 'text':
      // A pattern longer than the column's values cannot match one: the value's bound is the pattern's.
      return { type: 'string', maxLength: typeof valueSchema.maxLength === 'number' ? valueSchema.maxLength : DEFAULT_MAX_LENGTH };
    case 'flag':
      return { const: true };
  }
}

function conditionSchema(field: FieldModel): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const operator of OPERATORS) {
    if (field.filter.includes(operator.name)) properties[operator.name] = operatorValueSchema(operator.value, field.valueSchema);
  }
  return {
    type: 'object',
    properties,
    additionalProperties: false,
    minProperties: 1,
    [MESSAGES_KEYWORD]: {
      // `where.title: "x"` is the commonest slip: say what a condition looks like, with an operator it allows.
      type: `{path} must be an object of operators such as { ${JSON.stringify(Object.keys(properties)[0] ?? 'eq')}: … }`,
      additionalProperties: `operator \`{key}\` is not allowed on field \`${field.key}\``,
      minProperties: `the condition on \`${field.key}\` names no operator`,
    },
  };
}

/** A `$ref` is a URI fragment holding a JSON Pointer: a column key with `/`, `~` or `%` must be escaped twice. */
function conditionRef(key: string): string {
  const pointerToken = `condition_${key}`.replace(/~/g, '~0').replace(/\//g, '~1');
  return `#/$defs/${encodeURIComponent(pointerToken)}`;
}

/** CONTRACT §9: a to-many include's limit is at most the relation's maxLimit, and never above this. */
export const MAX_INCLUDE_LIMIT = 1000;

export const RELATION_FILTER_DEF = 'relation_filter';
export const INCLUDE_DEF = 'include';
export const INCLUDE_ENTRY_DEF = 'include_entry';

/**
 * A relation filter (CONTRACT §9): `{ is: Where }` … `{ none: Where }`. The inner where is the related resource's,
 * checked against its own policy once this shape holds (relation-input.ts): the related resource may be defined later.
 */
function relationFilterSchema(): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const name of RELATION_FILTERS) properties[name] = { type: 'object' };
  return {
    type: 'object',
    properties,
    additionalProperties: false,
    minProperties: 1,
    [MESSAGES_KEYWORD]: {
      type: '{path} must be an object such as { "is": … } or { "some": … }',
      additionalProperties: '`{key}` is not a relation filter (is, isNot, some, every, none)',
      minProperties: '{path} names no relation filter',
    },
  };
}

/** `include` (CONTRACT §9): relation names, each `true` or its own list-like input, checked in depth by relation-input.ts. */
function includeDefs(relations: readonly RelationDeclaration[]): Record<string, JsonSchema> {
  const properties: Record<string, JsonSchema> = {};
  for (const relation of relations) properties[relation.name] = { $ref: `#/$defs/${INCLUDE_ENTRY_DEF}` };
  return {
    [INCLUDE_DEF]: {
      type: 'object',
      properties,
      additionalProperties: false,
      [MESSAGES_KEYWORD]: { additionalProperties: 'relation `{key}` cannot be included' },
    },
    [INCLUDE_ENTRY_DEF]: {
      type: ['boolean', 'object'],
      not: { const: false },
      properties: {
        // Bounded for the document's readers; the related resource's own schema checks each part (relation-input.ts).
        select: { type: 'array', maxItems: 1000, items: { type: 'string', maxLength: 1000 } },
        where: { type: 'object' },
        orderBy: { type: 'array', maxItems: MAX_ORDER_BY, items: { type: 'object' } },
        limit: { type: 'integer', minimum: 1, maximum: MAX_INCLUDE_LIMIT },
        include: { type: 'object' },
      },
      additionalProperties: false,
      [MESSAGES_KEYWORD]: {
        type: '{path} must be true or { select?, where?, orderBy?, limit?, include? }',
        not: '{path} must be true or { select?, where?, orderBy?, limit?, include? }',
        additionalProperties: 'unknown include key `{key}`',
      },
    },
  };
}

/** The top-level where (may be empty: filters nothing) and a nested one (must say something). */
export const WHERE_DEF = 'where';
export const NESTED_WHERE_DEF = 'where_nested';

/**
 * The where grammar, recursive: two definitions instead of one per depth, so ajv compiles (and the compiler
 * writes) each once. The depth limit of CONTRACT §2 is checked before validation (where-depth.ts).
 */
function whereDefs(filterable: readonly FieldModel[], relations: readonly RelationDeclaration[]): Record<string, JsonSchema> {
  const defs: Record<string, JsonSchema> = {};
  for (const field of filterable) defs[`condition_${field.key}`] = conditionSchema(field);
  const filterRelations = relations.filter((relation) => relation.isFilterable);
  if (filterRelations.length > 0) defs[RELATION_FILTER_DEF] = relationFilterSchema();
  const nested = { $ref: `#/$defs/${NESTED_WHERE_DEF}` };
  const where = (isNested: boolean): JsonSchema => {
    const properties: Record<string, JsonSchema> = {};
    for (const field of filterable) properties[field.key] = { $ref: conditionRef(field.key) };
    for (const relation of filterRelations) properties[relation.name] = { $ref: `#/$defs/${RELATION_FILTER_DEF}` };
    // An empty OR or NOT has no obvious meaning (match nothing? everything?): nested lists and objects must say something.
    properties.AND = { type: 'array', minItems: 1, maxItems: MAX_WHERE_ITEMS, items: nested };
    properties.OR = { type: 'array', minItems: 1, maxItems: MAX_WHERE_ITEMS, items: nested };
    properties.NOT = nested;
    const schema: JsonSchema = {
      type: 'object',
      properties,
      additionalProperties: false,
      [MESSAGES_KEYWORD]: { additionalProperties: 'field `{key}` cannot be filtered', minProperties: 'a nested where must name at least one condition' },
    };
    if (isNested) schema.minProperties = 1; // the top-level `where: {}` simply filters nothing
    return schema;
  };
  defs[WHERE_DEF] = where(false);
  defs[NESTED_WHERE_DEF] = where(true);
  return defs;
}

function fieldNameList(keys: readonly string[], message: string): JsonSchema {
  // An empty enum is not a valid schema: no allowed name means every name is refused.
  if (keys.length === 0) return { not: {}, [MESSAGES_KEYWORD]: { not: message } };
  return { type: 'string', enum: [...keys], [MESSAGES_KEYWORD]: { enum: message } };
}

function selectSchema(fields: readonly FieldModel[]): JsonSchema {
  const readable = fields.filter((field) => field.read).map((field) => field.key);
  // Distinct names out of `readable`: no more of them than readable fields.
  return { type: 'array', minItems: 1, maxItems: Math.max(readable.length, 1), uniqueItems: true, items: fieldNameList(readable, 'field `{value}` is not readable') };
}

function orderBySchema(fields: readonly FieldModel[]): JsonSchema {
  const sortable = fields.filter((field) => field.sort).map((field) => field.key);
  return {
    type: 'array',
    maxItems: MAX_ORDER_BY,
    items: {
      type: 'object',
      required: ['field'],
      properties: {
        field: fieldNameList(sortable, 'field `{value}` cannot be sorted'),
        direction: { type: 'string', enum: ['asc', 'desc'] },
      },
      additionalProperties: false,
    },
  };
}

function inputObject(properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema {
  const schema: JsonSchema = {
    type: 'object',
    properties,
    additionalProperties: false,
    [MESSAGES_KEYWORD]: { additionalProperties: 'unknown input key `{key}`' },
  };
  if (required.length > 0) schema.required = required;
  return schema;
}

function writeData(fields: readonly FieldModel[], kind: 'create' | 'update'): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const field of fields) {
    if (!field[kind]) continue;
    properties[field.key] = field.isNullable ? withNull(field.valueSchema) : field.valueSchema;
    if (kind === 'create' && field.isRequiredOnCreate) required.push(field.key);
  }
  const verb = kind === 'create' ? 'writable' : 'updatable';
  const schema: JsonSchema = {
    type: 'object',
    properties,
    additionalProperties: false,
    [MESSAGES_KEYWORD]: {
      additionalProperties: `field \`{key}\` is not ${verb}`,
      minProperties: 'data must name at least one field to update',
    },
  };
  if (required.length > 0) schema.required = required;
  if (kind === 'update') schema.minProperties = 1;
  return schema;
}

/** CONTRACT §10: the ETag(s) a conditional write expects (HTTP `If-Match`): `"…"`, a comma-separated list, or `*`. */
const IF_MATCH: JsonSchema = { type: 'string', minLength: 1, maxLength: 1024 };

/** CONTRACT §10: `true` asks for the first page's cursor; a string is the `nextCursor` of the page before. */
const CURSOR: JsonSchema = { anyOf: [{ type: 'string', minLength: 1, maxLength: MAX_CURSOR_LENGTH }, { const: true }] };

/** list's input: a cursor page starts after the cursor's row, so it takes no offset. */
function cursorInput(schema: JsonSchema): JsonSchema {
  const messages = schema[MESSAGES_KEYWORD] as Record<string, string>;
  return {
    ...schema,
    not: { properties: { cursor: true, offset: true }, required: ['cursor', 'offset'] },
    [MESSAGES_KEYWORD]: { ...messages, not: 'cursor and offset cannot be used together: a cursor page starts after the row its cursor was taken from' },
  };
}

/** A data schema with `key` optional (upsert's key comes from the path; the body may repeat it). */
function withoutRequired(schema: JsonSchema, key: string): JsonSchema {
  const required = ((schema.required ?? []) as string[]).filter((name) => name !== key);
  const { required: _required, ...rest } = schema;
  return required.length > 0 ? { ...rest, required } : rest;
}

/** The input schema of every crud action, keyed by action name. */
export function buildInputSchemas(options: InputSchemaOptions): InputSchemas {
  const { fields, idSchema, maxLimit, maxBatch, optIn, relations } = options;
  const filterable = fields.filter((field) => field.filter.length > 0);
  const $defs = whereDefs(filterable, relations);
  // Only a resource with relations takes `include`: the others' inputs stay exactly as they were.
  const include: Record<string, JsonSchema> = relations.length === 0 ? {} : { include: { $ref: `#/$defs/${INCLUDE_DEF}` } };
  const getDefs = relations.length === 0 ? null : includeDefs(relations);
  if (getDefs !== null) Object.assign($defs, getDefs);
  const where = { $ref: `#/$defs/${WHERE_DEF}` };
  const pageInput = {
    select: selectSchema(fields),
    where,
    orderBy: orderBySchema(fields),
    limit: { type: 'integer', minimum: 1, maximum: maxLimit },
    offset: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER },
    includeTotal: { type: 'boolean' },
  };
  const listInput = { ...cursorInput(inputObject({ ...pageInput, cursor: CURSOR, ...include })), $defs };
  // findOne answers one row: a cursor has nothing to page there, so it is an unknown key.
  const findOneInput = { ...inputObject({ ...pageInput, ...include }), $defs };
  const whereOnly = { ...inputObject({ where }), $defs };
  const create = writeData(fields, 'create');
  const update = writeData(fields, 'update');
  const schemas: InputSchemas = {
    list: listInput,
    // get's own input carries the include definitions, so its published schema stands alone.
    get: getDefs === null ? inputObject({ id: idSchema, select: selectSchema(fields) }, ['id']) : { ...inputObject({ id: idSchema, select: selectSchema(fields), ...include }, ['id']), $defs: getDefs },
    findOne: findOneInput,
    create,
    update: inputObject({ id: idSchema, data: update, ifMatch: IF_MATCH }, ['id', 'data']),
    delete: inputObject({ id: idSchema, ifMatch: IF_MATCH }, ['id']),
    count: whereOnly,
    exists: whereOnly,
  };
  // CONTRACT §10: a bulk write's where must say something (`{}` would reach every row in scope).
  const matching = { $ref: `#/$defs/${NESTED_WHERE_DEF}` };
  if (optIn.includes('createMany')) schemas.createMany = inputObject({ items: { type: 'array', minItems: 1, maxItems: maxBatch, items: create } }, ['items']);
  if (optIn.includes('updateMany')) schemas.updateMany = { ...inputObject({ where: matching, data: update }, ['where', 'data']), $defs };
  if (optIn.includes('deleteMany')) schemas.deleteMany = { ...inputObject({ where: matching }, ['where']), $defs };
  if (optIn.includes('upsert')) schemas.upsert = inputObject({ id: idSchema, data: withoutRequired(create, options.pkKey), ifMatch: IF_MATCH }, ['id', 'data']);
  return schemas;
}
