// The published form of a schema Tessera validates with: the same keywords, minus the private
// `x-messages` annotation (error templates for ajv), whose "never allowed" message becomes a description.
// Request schemas carry no `default`: generators read it as "always present" (see publishInputSchema).
import type { JsonSchema } from '../model/options';
import { MESSAGES_KEYWORD } from '../validation';
import { mapSchema } from './schema-walk';

/** Strips `x-messages` everywhere; a `not: {}` (nothing allowed here) keeps its reason as `description`. */
export function publishSchema(schema: JsonSchema): JsonSchema {
  return mapSchema(schema, (node) => {
    const messages = node[MESSAGES_KEYWORD] as Record<string, string> | undefined;
    if (messages === undefined) return node;
    delete node[MESSAGES_KEYWORD];
    const isNever = typeof node.not === 'object' && node.not !== null && Object.keys(node.not).length === 0;
    if (isNever && node.description === undefined) {
      // A template names the offending value (`field {value} …`), which a description cannot.
      node.description = messages.not !== undefined && !messages.not.includes('{') ? messages.not : 'no value is allowed here';
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

