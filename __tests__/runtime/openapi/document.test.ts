// buildOpenApiDocument (CONTRACT §5): a valid OpenAPI 3.1.0 document of exactly the mounted routes, with
// operationIds, tags, schemas that say what the actions accept and answer, the error statuses of each
// route, and the same text for the same services.
import { buildOpenApiDocument, clearRegistry, crud, defineService, ERROR_CODES, type CrudOptions, type OpenApiDocument, type Service } from 'tessera-api';
import { blog } from '../../../fixtures/blog/app';
import { component, invalidComponentSchemas, operationsOf, resolve, responseSchema } from '../../helpers/openapi-reader';
import { validateOpenApi } from '../../helpers/openapi-validator';
import { useServerTestbed } from '../../helpers/server-testbed';
import { defineTestService } from '../../helpers/test-app';

/** Where a schema uses the `default` keyword (JSON Pointers); names of properties and example values are data, not keywords. */
function defaultKeywords(schema: unknown, path = ''): string[] {
  if (typeof schema !== 'object' || schema === null) return [];
  const found: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'default') found.push(`${path}/default`);
    if (['examples', 'example', 'enum', 'const'].includes(key)) continue;
    if (['properties', '$defs', 'patternProperties'].includes(key)) {
      for (const [name, child] of Object.entries(value as object)) found.push(...defaultKeywords(child, `${path}/${key}/${name}`));
    } else found.push(...defaultKeywords(value, `${path}/${key}`));
  }
  return found;
}

const CRUD_ORDER = ['list', 'get', 'findOne', 'create', 'update', 'delete', 'count', 'exists'];

function build(services: Service[], options: { prefix?: string; hasContext?: boolean; description?: string } = {}): OpenApiDocument {
  return buildOpenApiDocument({ services, prefix: '/api', title: 'Shop', version: '2.0.0', ...options });
}

/** Valid for the OpenAPI 3.1 validator, and every component a valid JSON Schema 2020-12. */
async function expectValid(document: OpenApiDocument): Promise<void> {
  expect(await validateOpenApi(document)).toEqual({ valid: true });
  expect(invalidComponentSchemas(document)).toEqual([]);
}

describe('buildOpenApiDocument', () => {
  const testbed = useServerTestbed();

  /** A service `name` over a fresh database with one notes resource `resource` (crud options as given). */
  async function notesService(name: string, resource: string, options: Omit<CrudOptions, 'access'> & { access?: CrudOptions['access'] }): Promise<Service> {
    const database = await testbed.openDatabase();
    const service = defineService({ name, db: database.db });
    const { notes } = database.tables;
    service.resource({ name: resource, table: notes, id: notes.id }).use(crud({ access: 'public', ...options }));
    return service;
  }

  /** A service with a custom action whose schemas use local `$defs` refs, and one that declares no schema. */
  async function actionsService(): Promise<Service> {
    const service = defineService({ name: 'tools', db: (await testbed.openDatabase()).db });
    service.action('label', {
      input: {
        type: 'object',
        properties: { label: { $ref: '#/$defs/label' }, tags: { type: 'array', items: { $ref: '#/$defs/label' } } },
        required: ['label'],
        additionalProperties: false,
        $defs: { label: { type: 'string', minLength: 2 } },
      },
      output: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'], additionalProperties: false },
      handler: () => ({ ok: true }),
    });
    service.action('free', { handler: () => 42 });
    return service;
  }

  describe('validity', () => {
    it('passes a real OpenAPI 3.1 validator for the test application', async () => {
      await expectValid(build([testbed.service.shop]));
    });

    it('passes the validator for fixtures/blog', async () => {
      await expectValid(build([blog], { description: 'The blog example' }));
    });

    it('passes the validator with operations off, routes off or moved, no fields, prefixes "" and "/v2", and custom actions', async () => {
      const off = await notesService('off', 'offNotes', { operations: false });
      const moved = await notesService('moved', 'movedNotes', { routes: { get: false, list: { path: '/search' }, delete: { path: '/:id/remove' } } });
      const bare = await notesService('bare', 'bareNotes', {});
      const tools = await actionsService();
      for (const prefix of ['/api', '', '/v2']) await expectValid(build([off, moved, bare, tools, testbed.service.shop], { prefix }));
    });
  });

  describe('operations', () => {
    it('names crud operations <service>.<resource>.<action> and custom actions <service>.<action>, in operationId and summary', () => {
      const operations = operationsOf(build([testbed.service.shop]));
      const notes = operations.filter(({ operationId }) => operationId.startsWith('shop.notes.')).map(({ operationId }) => operationId);
      expect(notes.sort()).toEqual(CRUD_ORDER.map((action) => `shop.notes.${action}`).sort());
      expect(operations.map(({ operationId }) => operationId)).toContain('shop.ping');
      for (const { operation } of operations) expect(operation.summary).toBe(operation.operationId);
    });

    it('tags crud operations per resource and custom actions per service, declaring each tag once', () => {
      const document = build([testbed.service.shop]);
      const byId = Object.fromEntries(operationsOf(document).map(({ operationId, operation }) => [operationId, operation.tags]));
      expect(byId['shop.items.get']).toEqual(['shop.items']);
      expect(byId['shop.ping']).toEqual(['shop']);
      expect(document.tags.map((tag) => tag.name)).toEqual(['shop.categories', 'shop.counters', 'shop.items', 'shop.kinds', 'shop.notes', 'shop.readings', 'shop']);
    });

    it('orders services and resources by name and actions in contract order, whatever the declaration order', async () => {
      const zeta = await notesService('zeta', 'zb', {});
      zeta.resource({ name: 'za', table: testbed.database.tables.notes, id: testbed.database.tables.notes.id }).use(crud({ access: 'public' }));
      const alpha = await notesService('alpha', 'ab', { operations: { list: false } });
      alpha.resource({ name: 'aa', table: testbed.database.tables.notes, id: testbed.database.tables.notes.id }).use(crud({ access: 'public' }));
      const document = build([zeta, alpha]);
      const resources = [...new Set(operationsOf(document).map(({ operationId }) => operationId.split('.').slice(0, 2).join('.')))];
      expect(resources).toEqual(['alpha.aa', 'alpha.ab', 'zeta.za', 'zeta.zb']);
      // A path appears where its first action comes in contract order; methods on one path follow the same order.
      expect(Object.keys(document.paths).filter((path) => path.startsWith('/api/za'))).toEqual(['/api/za/query', '/api/za/{id}', '/api/za/find-one', '/api/za', '/api/za/count', '/api/za/exists']);
      expect(Object.keys(document.paths['/api/za/{id}']!)).toEqual(['get', 'patch', 'delete']);
      expect(Object.keys(document.paths).slice(0, 2)).toEqual(['/api/aa/query', '/api/aa/{id}']);
    });

    it('leaves out switched-off operations and routes set to false, and documents a moved route at its path', async () => {
      const off = await notesService('off', 'offNotes', { operations: false });
      const moved = await notesService('moved', 'movedNotes', { operations: { update: false }, routes: { get: false, list: { path: '/search' }, delete: { path: '/:id/remove' } } });
      const document = build([off, moved]);
      expect(Object.keys(document.paths).filter((path) => path.includes('offNotes'))).toEqual([]);
      const routes = operationsOf(document).map(({ method, path, operationId }) => `${method} ${path} ${operationId}`);
      expect(routes).toEqual([
        'POST /api/movedNotes/search moved.movedNotes.list',
        'POST /api/movedNotes/find-one moved.movedNotes.findOne',
        'POST /api/movedNotes moved.movedNotes.create',
        'DELETE /api/movedNotes/{id}/remove moved.movedNotes.delete',
        'POST /api/movedNotes/count moved.movedNotes.count',
        'POST /api/movedNotes/exists moved.movedNotes.exists',
      ]);
      expect(Object.keys(document.components.schemas!).some((name) => name.startsWith('off.'))).toBe(false);
    });

    it('puts every path under the prefix, and none under it with an empty prefix', () => {
      expect(Object.keys(build([testbed.service.shop], { prefix: '/v2' }).paths).every((path) => path.startsWith('/v2/'))).toBe(true);
      expect(Object.keys(build([testbed.service.shop], { prefix: '' }).paths)).toContain('/notes/query');
    });
  });

  describe('schemas', () => {
    it('puts only readable fields in rows, types scrubbed fields unknown, and keeps write-only fields to inputs', () => {
      const document = build([testbed.service.shop]);
      const row = component(document, 'shop.items.Row');
      expect(Object.keys(row.properties)).toEqual(['id', 'name', 'price', 'rating', 'active', 'createdAt', 'ownerId', 'email', 'categoryId']);
      expect(row.required).toEqual(Object.keys(row.properties));
      expect(row.additionalProperties).toBe(false);
      expect(row.properties.email).toEqual({ description: expect.stringMatching(/scrub/) }); // any value
      expect(component(document, 'shop.items.CreateInput').properties).toHaveProperty('secret');
      expect(component(document, 'shop.items.SelectedRow').properties).not.toHaveProperty('secret');
      expect(Object.keys(component(document, 'shop.notes.Row').properties)).toEqual(['id', 'title', 'content']); // not `internal`
    });

    it('describes select as narrowing rows to readable fields, in the list body and as a comma-separated get parameter', () => {
      const document = build([testbed.service.shop]);
      const selectedRow = component(document, 'shop.notes.SelectedRow');
      expect(selectedRow.required).toBeUndefined();
      expect(selectedRow.description).toMatch(/select/);
      const listSelect = component(document, 'shop.notes.ListInput').properties.select;
      // At most one of each readable field.
      expect(listSelect).toMatchObject({ type: 'array', minItems: 1, maxItems: 3, items: { enum: ['id', 'title', 'content'] } });
      const get = operationsOf(document).find(({ operationId }) => operationId === 'shop.notes.get')!.operation;
      expect(get.parameters).toEqual([
        expect.objectContaining({ name: 'id', in: 'path', required: true }),
        expect.objectContaining({ name: 'select', in: 'query', style: 'form', explode: false, schema: { type: 'array', minItems: 1, maxItems: 3, uniqueItems: true, items: listSelect.items } }),
        expect.objectContaining({ name: 'If-None-Match', in: 'header', required: false }),
      ]);
      expect(get.description).toMatch(/select/);
    });

    it('publishes the where grammar: only filterable fields, each with only its allowed operators, nested at most 5 deep', () => {
      const document = build([testbed.service.shop]);
      const where = component(document, 'shop.notes.Where');
      expect(Object.keys(where.properties)).toEqual(['id', 'title', 'content', 'AND', 'OR', 'NOT']);
      expect(Object.keys(resolve(document, where.properties.content).properties)).toEqual(['contains', 'isNull', 'isNotNull']);
      expect(Object.keys(resolve(document, where.properties.id).properties)).toEqual(['eq', 'ne', 'in', 'notIn']);
      expect(resolve(document, where.properties.id).additionalProperties).toBe(false);
      // Recursive: AND, OR and NOT hold nested wheres; the depth limit is stated (and checked before validation).
      // Issue 32: bounded, with the request-wide totals stated and published for tools.
      expect(where.properties.AND).toEqual({ type: 'array', minItems: 1, maxItems: 100, items: { $ref: '#/components/schemas/shop.notes.WhereNested' } });
      expect(where['x-tessera-where-limits']).toEqual({ maxDepth: 5, maxConditions: 200, maxValues: 32_000 });
      expect(component(document, 'shop.notes.WhereNested').properties.NOT).toEqual({ $ref: '#/components/schemas/shop.notes.WhereNested' });
      expect(where.description).toContain('nest at most 5 levels deep');
      expect(component(document, 'shop.notes.ListInput').properties.where).toEqual({ $ref: '#/components/schemas/shop.notes.Where' });
      expect(component(document, 'shop.notes.WhereInput').properties.where).toEqual({ $ref: '#/components/schemas/shop.notes.Where' });
    });

    it('takes limit bounds from maxLimit (maximum) and states defaultLimit in words, never as `default`', () => {
      const document = build([testbed.service.shop]);
      const notes = component(document, 'shop.notes.ListInput').properties;
      expect(notes.limit).toEqual({ type: 'integer', minimum: 1, maximum: 10, format: 'int32', description: "Page size, 1..10. Default: 3 (the resource's `defaultLimit`)." });
      expect(component(document, 'shop.items.ListInput').properties.limit).toMatchObject({ maximum: 100, description: expect.stringContaining('Default: 20') });
      expect(notes.offset.description).toContain('Default: 0.');
      expect(notes.includeTotal.description).toContain('Default: false.');
      expect(notes.orderBy.items.properties.direction).toEqual({ type: 'string', enum: ['asc', 'desc'], description: 'Default: `asc`.' });
    });

    it('publishes no `default` keyword in any request schema (generators read it as always present), a custom action\'s own included', async () => {
      const tools = defineService({ name: 'tools', db: (await testbed.openDatabase()).db });
      tools.action('page', { input: { type: 'object', properties: { size: { type: 'integer', default: 10, description: 'Rows.' }, default: { type: 'string' } } }, handler: () => 1 });
      const document = build([testbed.service.shop, tools]);
      const inputs = Object.entries(document.components.schemas!).filter(([name]) => /Input|Where|Condition/.test(name));
      expect(inputs.length).toBeGreaterThan(20);
      for (const [name, schema] of inputs) expect({ name, defaults: defaultKeywords(schema) }).toEqual({ name, defaults: [] });
      const page = resolve(document, operationsOf(document).find(({ operationId }) => operationId === 'tools.page')!.operation.requestBody.content['application/json'].schema);
      expect(page.properties).toEqual({ size: { type: 'integer', description: 'Rows. Default: 10.' }, default: { type: 'string' } });
    });

    it('documents each action output: { items, total? }, a row, a row or null, { success: true }, { count }, { exists }, 201 for create', () => {
      const document = build([testbed.service.shop]);
      const output = (action: string) => {
        const found = operationsOf(document).find(({ operationId }) => operationId === `shop.notes.${action}`)!;
        const status = action === 'create' ? 201 : 200;
        expect(Object.keys(found.operation.responses).filter((key) => key.startsWith('2'))).toEqual([String(status)]);
        return resolve(document, responseSchema(document, found.operation, status));
      };
      expect(output('list')).toMatchObject({ required: ['items'], properties: { items: { items: { $ref: '#/components/schemas/shop.notes.SelectedRow' } }, total: { type: 'integer' } } });
      expect(output('get')).toBe(component(document, 'shop.notes.SelectedRow'));
      expect(output('findOne').anyOf).toEqual([{ $ref: '#/components/schemas/shop.notes.SelectedRow' }, { type: 'null' }]);
      expect(output('create')).toBe(component(document, 'shop.notes.Row'));
      expect(output('update')).toBe(component(document, 'shop.notes.Row'));
      expect(output('delete')).toEqual({ type: 'object', properties: { success: { const: true } }, required: ['success'], additionalProperties: false });
      expect(output('count').properties).toEqual({ count: { type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER, format: 'int64' } });
      expect(output('exists').properties).toEqual({ exists: { type: 'boolean' } });
    });

    it('keeps the private x-messages keyword out of the document', () => {
      expect(JSON.stringify(build([testbed.service.shop]))).not.toContain('x-messages');
    });

    it('publishes custom action schemas as declared, with their local refs re-pointed, and any value when none is declared', async () => {
      const document = build([await actionsService()]);
      await expectValid(document);
      const label = operationsOf(document).find(({ operationId }) => operationId === 'tools.label')!.operation;
      expect(label.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/tools.label.Input' });
      expect(component(document, 'tools.label.Input').properties.label).toEqual({ $ref: '#/components/schemas/tools.label.Input/$defs/label' });
      expect(label.requestBody.required).toBe(true); // `{}` lacks `label`
      expect(label.requestBody.content['application/json'].examples.input.value).toEqual({ label: 'example', tags: ['example'] });
      expect(responseSchema(document, label, 200)).toEqual({ $ref: '#/components/schemas/tools.label.Output' });
      const free = operationsOf(document).find(({ operationId }) => operationId === 'tools.free')!.operation;
      expect(free.requestBody.required).toBe(false);
      expect(free.requestBody.content['application/json'].schema).toEqual({ description: expect.stringMatching(/no input schema/) });
      expect(responseSchema(document, free, 200)).toEqual({ description: expect.stringMatching(/no output schema/) });
      expect(free.responses.default).toBeDefined(); // a handler may throw any TesseraError
    });
  });

  describe('errors', () => {
    it('has one error body component whose code enum is exactly ERROR_CODES', () => {
      // ErrorBody, not Error: generated clients name a type after it, and `interface Error` would shadow the global one.
      const error = component(build([testbed.service.shop]), 'ErrorBody');
      expect(error.properties.error.properties.code.enum).toEqual(Object.keys(ERROR_CODES));
      expect(error.properties.error.required).toEqual(['code', 'message']);
    });

    it('gives each error status a shared response whose body is the error component', () => {
      const document = build([testbed.service.shop]);
      for (const { operation } of operationsOf(document)) {
        for (const [status, response] of Object.entries<any>(operation.responses)) {
          if (status.startsWith('2') || status === '304') continue; // success, and get's 304 (CONTRACT §10) without a body
          expect(resolve(document, response).content['application/json'].schema).toEqual({ $ref: '#/components/schemas/ErrorBody' });
        }
      }
      // One shared response per error status some operation answers, and none unused (429 only with a rate limit).
      const answered = new Set(operationsOf(document).flatMap(({ operation }) => Object.keys(operation.responses).filter((status) => /^[45]/.test(status))));
      expect(Object.keys(document.components.responses!).length).toBe(answered.size);
      expect(answered.has('429')).toBe(false);
    });

    it('declares the Retry-After header of the 503 SERVICE_UNAVAILABLE response', () => {
      const unavailable = build([testbed.service.shop]).components.responses!.ServiceUnavailable as any;
      expect(unavailable.headers['Retry-After'].schema).toMatchObject({ type: 'integer' });
      expect(Object.keys(unavailable.content['application/json'].examples)).toEqual(['SERVICE_UNAVAILABLE']);
    });

    it('lists for each route the statuses it can answer: 401 with a context factory, 403 with access rules, 404 with an id, 409 for writes, 413/415 with a body, 500/503 everywhere', () => {
      const statuses = (document: OpenApiDocument, operationId: string) => Object.keys(operationsOf(document).find((found) => found.operationId === operationId)!.operation.responses);
      const withContext = build([testbed.service.shop], { hasContext: true });
      const without = build([testbed.service.shop], { hasContext: false });
      expect(statuses(without, 'shop.notes.list')).toEqual(['200', '400', '413', '415', '500', '503']);
      expect(statuses(withContext, 'shop.notes.list')).toEqual(['200', '400', '401', '413', '415', '500', '503']);
      // CONTRACT §10: If-Match on update, delete and upsert may answer 412.
      expect(statuses(withContext, 'shop.notes.delete')).toEqual(['200', '400', '401', '404', '409', '412', '500', '503']);
      expect(statuses(withContext, 'shop.items.get')).toEqual(['200', '304', '400', '401', '403', '404', '500', '503']);
      expect(statuses(withContext, 'shop.items.create')).toEqual(['201', '400', '401', '403', '409', '413', '415', '500', '503']);
      expect(statuses(withContext, 'shop.items.update')).toEqual(['200', '400', '401', '403', '404', '409', '412', '413', '415', '500', '503']);
      expect(statuses(withContext, 'shop.items.upsert')).toEqual(['200', '201', '400', '401', '403', '409', '412', '413', '415', '500', '503']);
      expect(statuses(withContext, 'shop.items.deleteMany')).toEqual(['200', '400', '401', '403', '409', '413', '415', '500', '503']);
      expect(statuses(without, 'shop.ping')).toEqual(['200', '400', '413', '415', '500', '503', 'default']);
    });

    it("bounds createMany's items in and out by maxBatch (counters: 5), so an API linter finds every array limited", () => {
      const document = build([testbed.service.shop], { hasContext: false });
      const operation = operationsOf(document).find((found) => found.operationId === 'shop.counters.createMany')!.operation;
      const answered = operation.responses['201'].content['application/json'].schema;
      expect(answered.properties.items).toMatchObject({ type: 'array', maxItems: 5 });
      const input = document.components!.schemas!['shop.counters.CreateManyInput'];
      expect(input.properties!.items).toMatchObject({ type: 'array', minItems: 1, maxItems: 5 });
    });

    it('says when a public resource route has its own scope, with 404 on its id routes and 403 on its writes', async () => {
      const scope = () => ({ internal: { isNull: true } });
      const scoped = await notesService('scoped', 'scopedNotes', { fields: { id: { read: true }, title: { read: true, create: true, update: true } }, routes: { get: { scope }, create: { scope }, list: { scope } } });
      const document = build([scoped], { hasContext: false });
      const operation = (operationId: string) => operationsOf(document).find((found) => found.operationId === operationId)!.operation;
      expect(operation('scoped.scopedNotes.get').description).toMatch(/This route has its own scope.*A row outside the scope answers 404/);
      expect(operation('scoped.scopedNotes.update').description).not.toMatch(/own scope/);
      expect(Object.keys(operation('scoped.scopedNotes.create').responses)).toEqual(['201', '400', '403', '409', '413', '415', '500', '503']);
      expect(Object.keys(operation('scoped.scopedNotes.list').responses)).toEqual(['200', '400', '413', '415', '500', '503']);
      await expectValid(document);
    });
  });

  it('takes info title, version and description from the options, and serves from the application root', () => {
    const document = buildOpenApiDocument({ services: [testbed.service.shop], prefix: '/api', title: 'Shop', version: '2.0.0', description: 'All the shop' });
    expect(document.openapi).toBe('3.1.0');
    expect(document.info).toEqual({ title: 'Shop', version: '2.0.0', description: 'All the shop' });
    expect(build([testbed.service.shop]).info).toEqual({ title: 'Shop', version: '2.0.0' });
    // OWASP API9: the server states its audience (x-internal) and the environments it may be.
    expect(document.servers).toEqual([{ url: '/', description: expect.stringMatching(/local, staging or production/), 'x-internal': false }]);
  });

  it('builds the same JSON text twice, from services defined anew and given in another order', async () => {
    const tools = await actionsService();
    const first = JSON.stringify(build([testbed.service.shop, tools]), null, 2);
    expect(JSON.stringify(build([tools, testbed.service.shop]), null, 2)).toBe(first);
    // A second, separately defined copy of the same application gives the same text.
    clearRegistry();
    const again = defineTestService(await testbed.openDatabase());
    const againTools = await actionsService();
    expect(JSON.stringify(build([againTools, again.shop]), null, 2)).toBe(first);
  });

  it('never carries the value of an environment variable', async () => {
    process.env.TESSERA_SENTINEL_SECRET = 'sentinel-5ecret-value-93b1';
    try {
      const documents = [build([testbed.service.shop]), build([blog]), build([await actionsService()])];
      for (const document of documents) expect(JSON.stringify(document)).not.toContain('sentinel-5ecret-value-93b1');
    } finally {
      delete process.env.TESSERA_SENTINEL_SECRET;
    }
  });
});
