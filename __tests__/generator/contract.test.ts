// contract.json: every mounted action of the blog fixture, in the OpenAPI document's order, with the
// HTTP shape the client needs and the same input and output schemas the OpenAPI document publishes.
import { buildContract } from '../../generator/emit/contract';
import { clearRegistry, listServices } from '../../runtime';
import { actionSchemas } from '../../runtime/openapi/action-schemas';

describe('buildContract', () => {
  beforeAll(() => {
    clearRegistry();
    require('../../fixtures/blog/app');
  });
  afterAll(() => clearRegistry());

  it('names each action by its action name (spec §4.1 rule 4), its service apart, crud actions in CONTRACT §2 order', () => {
    const contract = buildContract({ services: listServices(), prefix: '/api', title: 'Blog', version: '1.0.0' });
    const actions = ['list', 'get', 'findOne', 'create', 'update', 'delete', 'count', 'exists'];
    // users is read-only (operations: create, update and delete off); notes opt in to CONTRACT §10's writes in bulk, named after the eight.
    const reads = ['list', 'get', 'findOne', 'count', 'exists'];
    const bulk = ['createMany', 'updateMany', 'deleteMany', 'upsert'];
    expect(contract.actions.map((action) => action.name)).toEqual([...[...actions, ...bulk].map((a) => `notes.${a}`), ...actions.map((a) => `tasks.${a}`), ...reads.map((a) => `users.${a}`)]);
    expect(new Set(contract.actions.map((action) => action.service))).toEqual(new Set(['blog']));
    expect(Object.keys(contract.actions[0])).toEqual(['name', 'service', 'method', 'path', 'status', 'httpInput', 'input', 'output']);
  });

  it('names a custom service action by its declared name, as the services route does', () => {
    const { defineService } = require('../../runtime') as typeof import('../../runtime');
    const shop = defineService({ name: 'shop', db: listServices()[0].db });
    shop.action('send-digest', { handler: () => ({ sent: true }) });
    const contract = buildContract({ services: [shop], prefix: '/api', title: 'Shop', version: '1.0.0' });
    expect(contract.actions.map(({ name, service, method, path }) => ({ name, service, method, path }))).toEqual([
      { name: 'send-digest', service: 'shop', method: 'POST', path: '/api/shop/send-digest' },
    ]);
  });

  it('gives each action its method, OpenAPI-style path, status and how its input travels', () => {
    const contract = buildContract({ services: listServices(), prefix: '/v2', title: 'Blog', version: '2.0.0' });
    const byName = new Map(contract.actions.map((action) => [action.name, action]));
    expect(byName.get('notes.get')).toMatchObject({ method: 'GET', path: '/v2/notes/{id}', status: 200, httpInput: 'id-and-select' });
    expect(byName.get('notes.create')).toMatchObject({ method: 'POST', path: '/v2/notes', status: 201, httpInput: 'body' });
    expect(byName.get('notes.update')).toMatchObject({ method: 'PATCH', path: '/v2/notes/{id}', httpInput: 'id-and-body' });
    expect(byName.get('notes.delete')).toMatchObject({ method: 'DELETE', httpInput: 'id' });
    expect(contract).toMatchObject({ title: 'Blog', version: '2.0.0' });
  });

  it('holds the schemas of actionSchemas, the function the OpenAPI document uses', () => {
    const contract = buildContract({ services: listServices(), prefix: '/api', title: 'Blog', version: '1.0.0' });
    const tasks = listServices()[0].resources.find((resource) => resource.name === 'tasks')!;
    const update = tasks.routes.find((route) => route.source.kind === 'crud' && route.source.action === 'update')!;
    const expected = actionSchemas(update.source as Parameters<typeof actionSchemas>[0]);
    expect(contract.actions.find((action) => action.name === 'tasks.update')).toMatchObject({ input: expected.input, output: expected.output });
    expect(Object.keys((expected.input as { properties: object }).properties)).toEqual(['id', 'data', 'ifMatch']);
  });
});
