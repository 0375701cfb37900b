// The parameters of a crud operation (CONTRACT §2, §9, §10): the row's id in the path, get's `select` and
// `include` in the query, and the conditional headers (If-None-Match on get, If-Match on conditional writes).
import type { OpenAPIV3_1 } from 'openapi-types';
import type { JsonSchema } from '../model/options';
import type { DocumentedCrudRoute } from './documented-routes';
import { CONDITIONAL_WRITES } from './error-schema';
import type { RouteExamples } from './request-examples';

/** CONTRACT §10: the header on answers of a whole row. */
export const ETAG_HEADER: OpenAPIV3_1.HeaderObject = {
  description:
    "The strong ETag of this answer (absent when `select` narrows the row): a digest of the row's stored values, followed by `.` and a digest of the body where a scrub or hook changed it, so callers who see the row differently get different ETags. If-None-Match compares it whole; send it back in If-Match to write only if the row's stored values are unchanged.",
  schema: { type: 'string', maxLength: 64 },
};

/** openapi-types reuses OpenAPI 3.0's Parameter Object for 3.1, schema type included: the same JSON Schema, typed for it. */
function parameterSchema(schema: JsonSchema): OpenAPIV3_1.ParameterObject['schema'] {
  return schema as OpenAPIV3_1.ParameterObject['schema'];
}

function conditionalHeader(name: string, description: string): OpenAPIV3_1.ParameterObject {
  return { name, in: 'header', required: false, description, schema: parameterSchema({ type: 'string', maxLength: 1024 }) };
}

/** The operation's parameters, in the order the reference pages show them; `input` is the action's input properties. */
export function crudParameters(route: DocumentedCrudRoute, input: Record<string, JsonSchema>, examples: RouteExamples): OpenAPIV3_1.ParameterObject[] {
  const { runtime } = route.source;
  const parameters: OpenAPIV3_1.ParameterObject[] = [];
  if (route.route.input !== 'body') {
    const id: OpenAPIV3_1.ParameterObject = { name: 'id', in: 'path', required: true, description: `The row's primary key (\`${runtime.pkKey}\`).`, schema: parameterSchema(input.id) };
    if (examples.id !== undefined) id.example = examples.id;
    parameters.push(id);
  }
  if (route.action === 'get') {
    const select: OpenAPIV3_1.ParameterObject = { name: 'select', in: 'query', required: false, style: 'form', explode: false, description: 'Comma-separated readable fields to return (default: every readable field).', schema: parameterSchema(input.select) };
    if (examples.select !== undefined) select.example = examples.select;
    parameters.push(select);
  }
  if (route.action === 'get' && runtime.relations.length > 0) {
    // CONTRACT §9: ?include=a,b includes each named relation with its defaults.
    const names = runtime.relations.map((relation) => relation.name);
    parameters.push({
      name: 'include',
      in: 'query',
      required: false,
      style: 'form',
      explode: false,
      description: 'Comma-separated relations to add to the row, each with its defaults (the body of list and findOne takes their options).',
      schema: parameterSchema({ type: 'array', maxItems: names.length, uniqueItems: true, items: { type: 'string', enum: names } }),
    });
  }
  if (route.action === 'get') parameters.push(conditionalHeader('If-None-Match', 'The ETag of the row as last read: when it is still current the answer is 304 without a body.'));
  if (CONDITIONAL_WRITES.has(route.action)) {
    parameters.push(conditionalHeader('If-Match', 'The ETag of the row as read (or `*`): when the row has changed since, nothing is written and the answer is 412 PRECONDITION_FAILED.'));
  }
  return parameters;
}
