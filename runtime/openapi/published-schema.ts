// The published form of a schema Tessera validates with: the same keywords, minus the private
// `x-messages` annotation (error templates for ajv), whose "never allowed" message becomes a description.
// Request schemas carry no `default`: generators read it as "always present" (see publishInputSchema).
import type { JsonSchema } from '../model/options';
import { MESSAGES_KEYWORD } from '../validation';
import { mapSchema } from './schema-walk';

// Powers of two are exact doubles, so these comparisons are exact.
const INT32 = 2 ** 31;
const INT64 = 2 ** 63;

/**
 * OpenAPI's `int32` / `int64` for a bounded integer without a format: the narrower one its range fits. An integer
 * without both bounds gets none (JSON integers may be larger than either).
 */
function integerFormat(node: JsonSchema): string | undefined {
  const isInteger = node.type === 'integer' || (Array.isArray(node.type) && node.type.includes('integer'));
  const { minimum, maximum } = node;
  if (!isInteger || node.format !== undefined || typeof minimum !== 'number' || typeof maximum !== 'number') return undefined;
  if (minimum >= -INT32 && maximum < INT32) return 'int32';
  return minimum >= -INT64 && maximum < INT64 ? 'int64' : undefined;
}

/**
 * Strips `x-messages` everywhere; a `not: {}` (nothing allowed here) keeps its reason as `description`. A
 * bounded integer states its format (integerFormat).
 */
export function publishSchema(schema: JsonSchema): JsonSchema {
  return mapSchema(schema, (node) => {
    const format = integerFormat(node);
    if (format !== undefined) node.format = format;
    const messages = node[MESSAGES_KEYWORD] as Record<string, unknown> | undefined;
    if (messages === undefined) return node;
    delete node[MESSAGES_KEYWORD];
    const isNever = typeof node.not === 'object' && node.not !== null && Object.keys(node.not).length === 0;
    if (isNever && node.description === undefined) {
      // A template names the offending value (`field {value} …`), which a description cannot.
      node.description = typeof messages.not === 'string' && !messages.not.includes('{') ? messages.not : 'no value is allowed here';
    }
    return node;
  });
}

/**
 * The published form of an input schema: publishSchema, with every `default` stated in the description
 * instead (`Default: 20.`). openapi-typescript (and others) type a property with a default as always
 * present, which is true of responses but not of requests: `limit` would become required in every list call.
 * Validation never used the keyword (ajv runs without useDefaults), so nothing the server does changes.
 */
export function publishInputSchema(schema: JsonSchema): JsonSchema {
  return mapSchema(publishSchema(schema), (node) => {
    if (!Object.hasOwn(node, 'default')) return node;
    const stated = `Default: ${JSON.stringify(node.default)}.`;
    delete node.default;
    node.description = typeof node.description === 'string' && node.description !== '' ? `${node.description} ${stated}` : stated;
    return node;
  });
}

