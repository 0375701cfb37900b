// The JSON Schema definitions a where and an include are validated by (CONTRACT §2, §9): each filterable field's
// operators, AND/OR/NOT nesting, relation filters and include entries. input-schemas.ts puts them under `$defs`.
import { MAX_IN_VALUES, OPERATORS, type OperatorValueKind } from './operators';
import { MAX_WHERE_ITEMS } from './where-limits';
import { MESSAGES_KEYWORD } from '../validation';
import { DEFAULT_MAX_LENGTH } from './column-schema';
import type { FieldModel } from './field-policy';
import { NO_NUL_PATTERN, type JsonSchema } from '../json-schema';
import { RELATION_FILTERS, type RelationDeclaration } from './relation-options';

/** CONTRACT §2: AND / OR / NOT nest at most this deep. */
export const MAX_WHERE_DEPTH = 5;
/** CONTRACT §2: at most this many orderBy entries. */
export const MAX_ORDER_BY = 5;

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
      // A pattern longer than the column's values cannot match one: the value's bound is the pattern's. U+0000 is
      // refused on every database: SQLite's LIKE ends the pattern there (`a\u0000` matched `alpha`), PostgreSQL
      // text cannot hold it.
      return {
        type: 'string',
        maxLength: typeof valueSchema.maxLength === 'number' ? valueSchema.maxLength : DEFAULT_MAX_LENGTH,
        pattern: NO_NUL_PATTERN,
        [MESSAGES_KEYWORD]: { pattern: '{path} must not contain the character U+0000' },
      };
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
export function includeDefs(relations: readonly RelationDeclaration[]): Record<string, JsonSchema> {
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
export function whereDefs(filterable: readonly FieldModel[], relations: readonly RelationDeclaration[]): Record<string, JsonSchema> {
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
