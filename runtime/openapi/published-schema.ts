// The published form of a schema Tessera validates with: the same keywords, minus the private
// `x-messages` annotation (error templates for ajv), whose "never allowed" message becomes a description.
import type { JsonSchema } from '../crud/options';
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

