// The OpenAPI document tells the truth: every documented operation, called with the document's own
// examples on a real server, answers its documented success status and a body its schema accepts; requests
// derived from the schemas to be invalid answer 400 VALIDATION_ERROR with a body the error schema accepts.
import { OPERATOR_NAMES } from 'tessera-api';
import { bodyValidator, component, operationsOf, resolve, responseSchema, successStatuses, type DocumentedOperation } from '../helpers/openapi-reader';
import { openDatabase, type DialectName } from '../helpers/databases';
import { request, type Response } from '../helpers/request';
import { ADMIN, clearRegistry, defineTestService, listen } from '../helpers/test-app';

export interface ConformanceApp {
  /** Starts the application's real server; called once, in beforeAll. */
  start(): Promise<{ url: string; close(): Promise<void> }>;
  /** Headers of a caller every access rule lets through (an admin). */
  headers: Record<string, string>;
  /** Tags of resources whose access rules refuse everyone: their documented success cannot happen, their 403 can. */
  alwaysForbidden: string[];
}

/**
 * Run order: rows are created first, read and changed through create's links, and deleted; then created again in
 * bulk (the same example values, unique ones included) and deleted by filter last.
 */
const ACTION_ORDER: Record<string, number> = { create: 0, get: 1, update: 2, delete: 4, createMany: 5, deleteMany: 6 };
const rank = (operation: DocumentedOperation) => ACTION_ORDER[operation.operationId.split('.')[2]] ?? 3;

interface Call {
  operation: DocumentedOperation;
  pathParams?: Record<string, unknown>;
  query?: Record<string, string>;
  body?: unknown;
}

export function openApiConformanceSuite(app: ConformanceApp): void {
  let server: { url: string; close(): Promise<void> };
  let document: any;
  let check: ReturnType<typeof bodyValidator>;

  beforeAll(async () => {
    server = await app.start();
    document = (await request(`${server.url}/openapi.json`)).body;
    check = bodyValidator(document);
  });
  afterAll(async () => {
    await server?.close();
  });

  function send({ operation, pathParams = {}, query = {}, body }: Call): Promise<Response> {
    let path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(String(pathParams[name])));
    const search = new URLSearchParams(query).toString();
    if (search !== '') path += `?${search}`;
    return request(server.url + path, { method: operation.method, body, headers: app.headers });
  }

  /** Checks the answer's body against the schema documented for its status (or `default`); a message when it fails. */
  function conformance(operation: DocumentedOperation, answer: Response): string | null {
    const { responses } = operation.operation;
    const status = responses[String(answer.status)] !== undefined ? answer.status : 'default';
    if (responses[String(status)] === undefined) return `${operation.operationId}: status ${answer.status} is not documented`;
    const problem = check(responseSchema(document, operation.operation, status), answer.body);
    return problem === null ? null : `${operation.operationId} ${answer.status}: ${problem} in ${answer.text}`;
  }

  /** Follows create's links: the created row's id for the linked get, update and delete operations. */
  function linkIds(operation: DocumentedOperation, body: any, ids: Map<string, unknown>): void {
    const links = resolve(document, operation.operation.responses['201'])?.links ?? {};
    for (const link of Object.values<any>(links)) ids.set(link.operationId, body[link.parameters.id.replace('$response.body#/', '')]);
  }

  it('answers every documented example with the documented success status and a body its schema accepts', async () => {
    const problems: string[] = [];
    const ids = new Map<string, unknown>();
    let successes = 0;
    const operations = operationsOf(document).sort((a, b) => rank(a) - rank(b));
    expect(operations.length).toBeGreaterThan(0);
    for (const operation of operations) {
      const { parameters = [], requestBody } = operation.operation;
      const pathParams: Record<string, unknown> = {};
      const query: Record<string, string> = {};
      for (const parameter of parameters) {
        if (parameter.in === 'path') pathParams[parameter.name] = ids.get(operation.operationId) ?? parameter.example;
        if (parameter.in === 'query' && parameter.example !== undefined) query[parameter.name] = parameter.example.join(',');
      }
      const examples = Object.values<any>(requestBody?.content['application/json'].examples ?? {});
      if (requestBody?.required === true && examples.length === 0) {
        // No example is only right when no body can be valid: a closed object with no properties (and at least one required).
        const schema = bodySchema(operation);
        if (schema.additionalProperties !== false || Object.keys(schema.properties).length > 0) problems.push(`${operation.operationId}: a required body without an example`);
        else await expectRefused({ operation, pathParams, body: {} }, 'a body no schema accepts', problems);
        continue;
      }
      const bodies = requestBody === undefined ? [undefined] : examples.map((example) => example.value);
      const isForbidden = app.alwaysForbidden.includes(operation.operation.tags[0]);
      for (const body of bodies) {
        const answer = await send({ operation, pathParams, query, body });
        const documented = isForbidden ? [403] : successStatuses(operation.operation);
        const expected = documented.includes(answer.status) ? answer.status : documented[0];
        if (answer.status !== expected) problems.push(`${operation.operationId}: ${answer.status} instead of ${documented.join(' or ')}: ${answer.text}`);
        const problem = conformance(operation, answer);
        if (problem !== null) problems.push(problem);
        if (answer.status === 201) linkIds(operation, answer.body, ids);
        if (answer.status === expected && !isForbidden) successes++;
      }
    }
    expect(problems).toEqual([]);
    expect(successes).toBeGreaterThan(0);
  });

  /** Sends one invalid request and checks the 400 VALIDATION_ERROR answer against the documented error schema. */
  async function expectRefused(call: Call, what: string, problems: string[], path?: string): Promise<void> {
    const answer = await send(call);
    if (answer.status !== 400 || answer.body?.error?.code !== 'VALIDATION_ERROR') {
      problems.push(`${call.operation.operationId} (${what}): ${answer.status} ${answer.text}`);
      return;
    }
    // The refusal names the very spot the schema excludes (a JSON Pointer into the input).
    if (path !== undefined && answer.body.error.details?.[0]?.path !== path) problems.push(`${call.operation.operationId} (${what}): refused at ${answer.text}, not at ${path}`);
    const problem = conformance(call.operation, answer);
    if (problem !== null) problems.push(`${what}: ${problem}`);
  }

  function bodySchema(operation: DocumentedOperation): any {
    return resolve(document, operation.operation.requestBody?.content['application/json'].schema);
  }

  /** The resource's component name prefix (`shop.notes`), from the operation's tag. */
  const owner = (operation: DocumentedOperation) => operation.operation.tags[0];

  it('refuses what the schemas exclude with 400 VALIDATION_ERROR and the documented error body', async () => {
    const problems: string[] = [];
    let refusals = 0;
    const refuse = async (call: Call, what: string, path?: string) => {
      refusals++;
      await expectRefused(call, what, problems, path);
    };
    for (const operation of operationsOf(document)) {
      // CONTRACT §2, §4: update's (and upsert's) HTTP body is the `data` of its input `{ id, data }`, and error paths point into the input.
      const schema = bodySchema(operation);
      const properties = schema?.properties ?? {};
      const idParameter = operation.operation.parameters?.find((parameter: any) => parameter.in === 'path');
      const at = (operation.method === 'PATCH' || operation.method === 'PUT') && idParameter !== undefined ? '/data' : '';
      const pathParams = idParameter === undefined ? {} : { id: idParameter.example };
      // A closed object refuses a key it does not list.
      if (schema?.additionalProperties === false) await refuse({ operation, pathParams, body: { ...firstExample(operation), notAKey: 1 } }, 'unknown property', `${at}/notAKey`);
      if (properties.limit !== undefined) {
        await refuse({ operation, body: { limit: properties.limit.maximum + 1 } }, 'limit above maximum', '/limit');
        await refuse({ operation, body: { limit: 'ten' } }, 'limit of the wrong type', '/limit');
      }
      if (properties.where !== undefined) {
        const where = resolve(document, properties.where);
        const filterable = Object.keys(where.properties).filter((key) => !['AND', 'OR', 'NOT'].includes(key));
        for (const field of filterable) {
          const allowed = Object.keys(resolve(document, where.properties[field]).properties);
          const refused = OPERATOR_NAMES.find((operator) => !allowed.includes(operator));
          if (refused !== undefined) await refuse({ operation, body: { ...firstExample(operation), where: { [field]: { [refused]: 1 } } } }, `operator ${refused} on ${field}`, `/where/${field}/${refused}`);
        }
        const row = component(document, `${owner(operation)}.SelectedRow`) ?? component(document, `${owner(operation)}.Row`);
        const unfilterable = Object.keys(row?.properties ?? {}).find((key) => !filterable.includes(key));
        if (unfilterable !== undefined) await refuse({ operation, body: { ...firstExample(operation), where: { [unfilterable]: { eq: 1 } } } }, `filter on ${unfilterable}`, `/where/${unfilterable}`);
      }
      const select = properties.select ?? operation.operation.parameters?.find((parameter: any) => parameter.name === 'select')?.schema;
      if (select !== undefined) {
        const readable: string[] = select.items.enum ?? [];
        const writeOnly = Object.keys(component(document, `${owner(operation)}.CreateInput`)?.properties ?? {}).find((key) => !readable.includes(key));
        const unreadable = writeOnly ?? 'notAField';
        if (properties.select !== undefined) await refuse({ operation, body: { select: [unreadable] } }, `select ${unreadable}`, '/select/0');
        else await refuse({ operation, pathParams, query: { select: unreadable } }, `?select=${unreadable}`, '/select/0');
      }
      if (idParameter?.schema.type === 'integer') await refuse({ operation, pathParams: { id: 'abc' }, body: schema === undefined ? undefined : firstExample(operation) }, 'id of the wrong type', '/id');
      if (operation.method === 'GET') await refuse({ operation, pathParams, query: { notAKey: '1' } }, 'unknown query parameter', '/notAKey');
      // A property of the wrong type: a number where a string is expected, a string elsewhere.
      const typed = Object.entries<any>(properties).find(([, property]) => property.type !== undefined);
      if (typed !== undefined && properties.limit === undefined) {
        const [key, property] = typed;
        const types = [property.type].flat();
        await refuse({ operation, pathParams, body: { ...firstExample(operation), [key]: types.includes('string') ? 42 : 'wrong' } }, `${key} of the wrong type`, `${at}/${key}`);
      }
    }
    expect(problems).toEqual([]);
    expect(refusals).toBeGreaterThan(operationsOf(document).length);
  });

  function firstExample(operation: DocumentedOperation): Record<string, unknown> {
    const examples = operation.operation.requestBody?.content['application/json'].examples ?? {};
    const first = Object.values<any>(examples)[0]?.value;
    return typeof first === 'object' && first !== null && !Array.isArray(first) ? first : {};
  }
}

/**
 * The suite on the test application over `dialect`, in a namespace of its own (the crud suites run in
 * parallel on the same tables), called by an admin so that scoped routes answer too.
 */
export function testAppConformanceSuite(dialect: DialectName): void {
  describe(`the OpenAPI document of the test application on ${dialect}`, () => {
    openApiConformanceSuite({
      async start() {
        const database = await openDatabase(dialect, 'openapi');
        await database.reset();
        clearRegistry();
        const service = defineTestService(database);
        const server = await listen({ services: [service.shop] });
        return { url: server.url, close: async () => (await server.close(), await database.close()) };
      },
      headers: { 'x-test-user': JSON.stringify({ user: ADMIN }) },
      alwaysForbidden: ['shop.categories'], // access: {} has no authorize (spec §5.1 rule 4)
    });
  });
}
