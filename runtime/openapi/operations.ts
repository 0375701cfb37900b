// One OpenAPI operation per documented route: operationId and summary, tag, parameters, request body
// with examples the server accepts, the success response and every error status the route can answer.
import type { OpenAPIV3_1 } from 'openapi-types';
import type { CrudActionName } from '../actions';
import type { JsonSchema } from '../model/options';
import { actionSchemas } from './action-schemas';
import { componentRef, schemaObject, type ComponentSchemas } from './components';
import type { DocumentedCrudRoute, DocumentedRoute, DocumentedServiceRoute } from './documented-routes';
import { withEdgeHeaders } from './edge-headers';
import { ERROR_SCHEMA, errorResponseName, errorStatuses } from './error-schema';
import { crudParameters, ETAG_HEADER } from './crud-parameters';
import { routeExamples, type RouteExamples } from './request-examples';

export type OpenApiOperation = OpenAPIV3_1.OperationObject;

const JSON_TYPE = 'application/json';

const DESCRIPTIONS: Record<CrudActionName, string> = {
  list: 'Lists the rows in scope, a page at a time. Each row holds the readable fields; `select` narrows them.',
  get: 'Reads one row by primary key. `?select=a,b` narrows the row to those readable fields; any other query parameter is refused.',
  findOne: 'The first row matching the list input, or null. Each row holds the readable fields; `select` narrows them. `limit` is validated, but one row is read.',
  create: 'Creates a row and answers it whole (its readable fields).',
  update: 'Changes the given fields of one row and answers the whole updated row (its readable fields).',
  delete: 'Deletes one row.',
  count: 'Counts the rows in scope that match `where`.',
  exists: 'Whether any row in scope matches `where`.',
  createMany: 'Creates every item in one transaction, all or nothing, and answers the created rows in input order.',
  updateMany: 'Applies `data` to every row in scope that matches `where` (which must not be empty), in one transaction; more rows than `maxAffected` changes nothing and answers 400.',
  deleteMany: 'Deletes every row in scope that matches `where` (which must not be empty), in one transaction; more rows than `maxAffected` deletes nothing and answers 400.',
  upsert: 'Creates the row with this primary key (201), or, when it exists in scope, sets its updatable fields from the body (200). A key that exists outside your scope answers 409.',
};

/** The component kind of each crud body (CONTRACT §5: list input, create input, update input …). */
const BODY_KINDS: Partial<Record<CrudActionName, string>> = {
  list: 'ListInput',
  findOne: 'ListInput',
  count: 'WhereInput',
  exists: 'WhereInput',
  create: 'CreateInput',
  update: 'UpdateInput',
  createMany: 'CreateManyInput',
  updateMany: 'UpdateManyInput',
  deleteMany: 'DeleteManyInput',
  upsert: 'UpsertInput',
};

/** The actions whose HTTP body is the input's `data` (the row's id is in the path). */
const DATA_BODIES: ReadonlySet<CrudActionName> = new Set(['update', 'upsert']);

/** CONTRACT §10: the answers of a whole row carry its ETag. */
const ETAG_ACTIONS: ReadonlySet<CrudActionName> = new Set(['get', 'create', 'update', 'upsert']);

export interface OperationContext {
  readonly components: ComponentSchemas;
  readonly hasContext: boolean;
  /** operationIds in the document, for links (only to operations that exist). */
  readonly operationIds: ReadonlySet<string>;
  /** operationIds the `rateLimit` option limits (they may answer 429). */
  readonly rateLimited: ReadonlySet<string>;
  /** Whether the `cors` option adds Access-Control-Allow-Origin to answers. */
  readonly cors: boolean;
}

function jsonContent(schema: JsonSchema, examples?: RouteExamples['body']): Record<string, OpenAPIV3_1.MediaTypeObject> {
  const media: OpenAPIV3_1.MediaTypeObject = { schema: schemaObject(schema) };
  if (examples !== undefined && Object.keys(examples).length > 0) media.examples = examples;
  return { [JSON_TYPE]: media };
}

function errorResponses(route: DocumentedRoute, context: OperationContext): OpenAPIV3_1.ResponsesObject {
  const responses: OpenAPIV3_1.ResponsesObject = {};
  for (const status of errorStatuses(route, context.hasContext, context.rateLimited.has(route.operationId))) responses[String(status)] = { $ref: `#/components/responses/${errorResponseName(status)}` };
  return responses;
}

function successWithEdgeHeaders(route: DocumentedRoute, success: OpenAPIV3_1.ResponseObject, context: OperationContext): OpenAPIV3_1.ResponseObject {
  return withEdgeHeaders(success, { rateLimit: context.rateLimited.has(route.operationId), cors: context.cors });
}

function crudDescription(route: DocumentedCrudRoute): string {
  const { runtime, routeScope } = route.source;
  const notes = [DESCRIPTIONS[route.action]];
  if (!runtime.access.isPublic) notes.push('Access rules apply: authorize runs on every call, and scope limits the rows reached.');
  if (routeScope !== null) notes.push('This route has its own scope: it reaches only the rows that scope allows, within the access rules.');
  if ((!runtime.access.isPublic || routeScope !== null) && route.route.input !== 'body') notes.push('A row outside the scope answers 404, like a missing one.');
  const scrubbed = runtime.readableScrubbed.map((field) => `\`${field.key}\``);
  if (scrubbed.length > 0 && route.action !== 'delete' && route.action !== 'count' && route.action !== 'exists') {
    notes.push(`Scrubbed per caller (typed unknown): ${scrubbed.join(', ')}.`);
  }
  return notes.join(' ');
}

/** create's answer links to the row's get, update and delete routes, when the primary key is returned as stored. */
function createLinks(route: DocumentedCrudRoute, operationIds: ReadonlySet<string>): Record<string, OpenAPIV3_1.LinkObject> | undefined {
  const { runtime } = route.source;
  const pk = runtime.readable.find((field) => field.key === runtime.pkKey);
  if (pk === undefined || pk.scrub !== null) return undefined;
  const links: Record<string, OpenAPIV3_1.LinkObject> = {};
  for (const action of ['get', 'update', 'delete']) {
    const operationId = `${route.service.name}.${route.resource.name}.${action}`;
    if (operationIds.has(operationId)) links[action] = { operationId, parameters: { id: `$response.body#/${pk.key}` } };
  }
  return Object.keys(links).length > 0 ? links : undefined;
}

function crudOperation(route: DocumentedCrudRoute, context: OperationContext): OpenApiOperation {
  const { runtime } = route.source;
  const owner = route.tag;
  const schemas = actionSchemas(route.source);
  const examples = routeExamples(route);
  const input = schemas.input.properties as Record<string, JsonSchema>;
  const operation: OpenApiOperation = { operationId: route.operationId, summary: route.operationId, description: crudDescription(route), tags: [route.tag] };

  const parameters = crudParameters(route, input, examples);
  if (parameters.length > 0) operation.parameters = parameters;

  const kind = BODY_KINDS[route.action];
  if (kind !== undefined) {
    const body = DATA_BODIES.has(route.action) ? input.data : schemas.input;
    const required = route.action !== 'create' || runtime.creatable.some((field) => field.isRequiredOnCreate);
    operation.requestBody = { required, content: jsonContent(context.components.addLifted(owner, body, kind), examples.body) };
  }

  const output = context.components.addLifted(owner, schemas.output, route.action === 'list' ? 'ListOutput' : null);
  const success: OpenAPIV3_1.ResponseObject = { description: route.route.status === 201 ? 'Created' : 'OK', content: jsonContent(output) };
  const etag = ETAG_ACTIONS.has(route.action) ? { ETag: ETAG_HEADER } : undefined;
  if (etag !== undefined) success.headers = etag;
  const links = route.action === 'create' ? createLinks(route, context.operationIds) : undefined;
  if (links !== undefined) success.links = links;
  operation.responses = { [String(route.route.status)]: successWithEdgeHeaders(route, success, context), ...errorResponses(route, context) };
  // upsert answers 200 for an updated row, 201 for a created one: the same row either way.
  if (route.action === 'upsert') {
    const created = successWithEdgeHeaders(route, { description: 'Created', headers: etag, content: jsonContent(output) }, context);
    operation.responses = { '200': successWithEdgeHeaders(route, success, context), '201': created, ...errorResponses(route, context) };
  }
  if (route.action === 'get') {
    const notModified = successWithEdgeHeaders(route, { description: 'Not modified: If-None-Match names the current ETag. No body.', headers: etag }, context);
    operation.responses = { '200': successWithEdgeHeaders(route, success, context), '304': notModified, ...errorResponses(route, context) };
  }
  return operation;
}

function serviceOperation(route: DocumentedServiceRoute, context: OperationContext): OpenApiOperation {
  const { action } = route;
  const schemas = actionSchemas(action);
  const examples = routeExamples(route);
  const owner = route.operationId;
  const input = action.input === undefined ? schemas.input : context.components.addWhole(`${owner}.Input`, schemas.input);
  const output = action.output === undefined ? schemas.output : context.components.addWhole(`${owner}.Output`, schemas.output);
  const source = route.route.source;
  // No body reads as `{}` (json-body.ts): the body is required only when the input schema refuses `{}`.
  const validate = source.kind === 'service-action' && source.validators !== null ? source.validators.get('input') : null;
  const required = validate !== null && validate({}) !== true;
  return {
    operationId: route.operationId,
    summary: route.operationId,
    description: `Custom action \`${action.name}\` of service \`${route.service.name}\`: the input is the JSON body; answers 200 with the handler's result.`,
    tags: [route.tag],
    requestBody: { required, content: jsonContent(input, examples.body) },
    responses: {
      [String(route.route.status)]: successWithEdgeHeaders(route, { description: 'OK', content: jsonContent(output) }, context),
      ...errorResponses(route, context),
      default: withEdgeHeaders({ description: 'Any other TesseraError the handler throws, with its own status.', content: jsonContent(componentRef(ERROR_SCHEMA)) }, { rateLimit: false, cors: context.cors }),
    },
  };
}

/** The operation object of a documented route; its schemas are registered in `context.components`. */
export function operationFor(route: DocumentedRoute, context: OperationContext): OpenApiOperation {
  return route.kind === 'crud' ? crudOperation(route, context) : serviceOperation(route, context);
}
