// The JSON Schemas of what the eight crud actions answer (CONTRACT §2), the output side of
// input-schemas.ts: rows hold readable fields only, in their JSON form; scrubbed fields are typed unknown.
import { MAX_CURSOR_LENGTH } from './cursor-length';
import type { CrudActionName } from '../actions';
import type { FieldModel } from './field-policy';
import { withNull } from './where-schemas';
import type { JsonSchema } from '../json-schema';

/** spec §2.4: a scrubbed field's value is whatever `scrub` returns for the caller. */
export const SCRUBBED_FIELD_DESCRIPTION = 'Redacted per caller by the field policy `scrub`: any JSON value.';

/** The `$defs` names the output schemas use (and the OpenAPI document lifts into components). */
export const ROW_DEF = 'Row';
export const SELECTED_ROW_DEF = 'SelectedRow';

function fieldOutputSchema(field: FieldModel): JsonSchema {
  if (field.scrub !== null) return { description: SCRUBBED_FIELD_DESCRIPTION };
  return field.isNullable ? withNull(field.valueSchema) : field.valueSchema;
}

/**
 * A response row. `isComplete`: every readable field is present (create and update answer whole rows);
 * otherwise each may be missing, because `select` narrows list, get and findOne rows.
 */
export function rowSchema(readable: readonly FieldModel[], isComplete: boolean): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  for (const field of readable) properties[field.key] = fieldOutputSchema(field);
  const schema: JsonSchema = {
    type: 'object',
    description: isComplete
      ? 'A row: every readable field, keyed by the table property name.'
      : 'A row: the readable fields, keyed by the table property name; every one of them unless `select` narrows the row to the selected fields.',
    properties,
    additionalProperties: false,
  };
  if (isComplete && readable.length > 0) schema.required = readable.map((field) => field.key);
  return schema;
}

const ref = (name: string): JsonSchema => ({ $ref: `#/$defs/${name}` });

function closedObject(properties: Record<string, JsonSchema>, required: string[]): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

/** A count of rows: JSON numbers carry integers exactly up to 2^53 - 1. */
const ROW_COUNT: JsonSchema = { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER };

/**
 * The success body of every crud action, self-contained (rows under `$defs`), keyed by action name; a page holds at
 * most `maxLimit` rows, createMany's answer as many as it took items (`maxBatch`).
 */
export function buildOutputSchemas(readable: readonly FieldModel[], maxLimit: number, maxBatch: number): Record<CrudActionName, JsonSchema> {
  const row = { [ROW_DEF]: rowSchema(readable, true) };
  const selectedRow = { [SELECTED_ROW_DEF]: rowSchema(readable, false) };
  return {
    list: {
      ...closedObject(
        {
          items: { type: 'array', maxItems: maxLimit, items: ref(SELECTED_ROW_DEF) },
          total: { ...ROW_COUNT, description: 'Present when the input asked for `includeTotal`: every matching row in scope, ignoring limit and offset.' },
          nextCursor: {
            type: ['string', 'null'],
            maxLength: MAX_CURSOR_LENGTH,
            description: 'Present when the input asked for a cursor (`cursor: true` or a cursor): the `cursor` of the next page, null on the last page.',
          },
        },
        ['items'],
      ),
      $defs: selectedRow,
    },
    get: { ...ref(SELECTED_ROW_DEF), $defs: selectedRow },
    findOne: { anyOf: [ref(SELECTED_ROW_DEF), { type: 'null' }], description: 'The first matching row, or null when no row matches.', $defs: selectedRow },
    create: { ...ref(ROW_DEF), $defs: row },
    update: { ...ref(ROW_DEF), $defs: row },
    delete: closedObject({ success: { const: true } }, ['success']),
    count: closedObject({ count: ROW_COUNT }, ['count']),
    exists: closedObject({ exists: { type: 'boolean' } }, ['exists']),
    createMany: { ...closedObject({ items: { type: 'array', maxItems: maxBatch, items: ref(ROW_DEF), description: 'The created rows, in the order of the input items.' } }, ['items']), $defs: row },
    updateMany: closedObject({ count: { ...ROW_COUNT, description: 'The rows updated.' } }, ['count']),
    deleteMany: closedObject({ count: { ...ROW_COUNT, description: 'The rows deleted.' } }, ['count']),
    upsert: { ...ref(ROW_DEF), $defs: row },
  };
}
