// The JSON Schemas of the eight actions' inputs (CONTRACT §2), derived from the field models. They are
// what ajv validates, and (later) what the OpenAPI document publishes, so both say the same thing.
import type { CrudActionName, OptInActionName } from '../actions';
import { MESSAGES_KEYWORD } from '../validation';
import { MAX_CURSOR_LENGTH } from './cursor-length';
import { MAX_IF_MATCH_LENGTH } from './if-match-length';
import type { FieldModel } from './field-policy';
import type { JsonSchema } from '../json-schema';
import type { RelationDeclaration } from './relation-options';
import { INCLUDE_DEF, includeDefs, MAX_ORDER_BY, NESTED_WHERE_DEF, WHERE_DEF, whereDefs, withNull } from './where-schemas';

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
const IF_MATCH: JsonSchema = { type: 'string', minLength: 1, maxLength: MAX_IF_MATCH_LENGTH };

/** CONTRACT §10: `true` asks for the first page's cursor; a string is the `nextCursor` of the page before. */
const CURSOR: JsonSchema = {
  anyOf: [{ type: 'string', minLength: 1, maxLength: MAX_CURSOR_LENGTH }, { const: true }],
  [MESSAGES_KEYWORD]: { anyOf: 'cursor must be true (for the first page) or the nextCursor of the page before' },
};

/** list's input: a cursor page starts after the cursor's row, so it takes no offset. */
function cursorInput(schema: JsonSchema): JsonSchema {
  const messages = schema[MESSAGES_KEYWORD] as Record<string, string>;
  return {
    ...schema,
    // An object holding both: `required` alone holds for a value that is no object (`5`), whose error is its type.
    not: { type: 'object', properties: { cursor: true, offset: true }, required: ['cursor', 'offset'] },
    [MESSAGES_KEYWORD]: {
      ...messages,
      not: { at: '/cursor', message: 'cursor and offset cannot be used together: a cursor page starts after the row its cursor was taken from' },
    },
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
