// GET /_app/services (CONTRACT §5): the mounted services, their resources with actions in contract order
// and routes with full paths, and the service's custom actions.
import { request } from '../helpers/request';
import { useServerTestbed } from '../helpers/server-testbed';

const CRUD_ORDER = ['list', 'get', 'findOne', 'create', 'update', 'delete', 'count', 'exists'];
/** With the opt-in actions of CONTRACT §10 on (items and counters). */
const BULK_ORDER = [...CRUD_ORDER, 'createMany', 'updateMany', 'deleteMany', 'upsert'];

/** The eight default routes of a resource (CONTRACT §2), under `prefix`. */
function defaultRoutes(resource: string, prefix: string) {
  const base = `${prefix}/${resource}`;
  return [
    { action: `${resource}.list`, method: 'POST', path: `${base}/query` },
    { action: `${resource}.get`, method: 'GET', path: `${base}/:id` },
    { action: `${resource}.findOne`, method: 'POST', path: `${base}/find-one` },
    { action: `${resource}.create`, method: 'POST', path: base },
    { action: `${resource}.update`, method: 'PATCH', path: `${base}/:id` },
    { action: `${resource}.delete`, method: 'DELETE', path: `${base}/:id` },
    { action: `${resource}.count`, method: 'POST', path: `${base}/count` },
    { action: `${resource}.exists`, method: 'POST', path: `${base}/exists` },
  ];
}

/** The default routes with the four of CONTRACT §10. */
function bulkRoutes(resource: string, prefix: string) {
  const base = `${prefix}/${resource}`;
  return [
    ...defaultRoutes(resource, prefix),
    { action: `${resource}.createMany`, method: 'POST', path: `${base}/bulk` },
    { action: `${resource}.updateMany`, method: 'PATCH', path: base },
    { action: `${resource}.deleteMany`, method: 'POST', path: `${base}/delete` },
    { action: `${resource}.upsert`, method: 'PUT', path: `${base}/:id` },
  ];
}

/** The test service's answer: notes, items, readings, counters and kinds with every action (items and counters with CONTRACT §10's too), categories with delete/update off, list moved and get unrouted. */
function expectedServices(prefix: string) {
  return {
    services: [
      {
        name: 'shop',
        resources: [
          { name: 'notes', actions: CRUD_ORDER.map((action) => `notes.${action}`), routes: defaultRoutes('notes', prefix) },
          { name: 'items', actions: BULK_ORDER.map((action) => `items.${action}`), routes: bulkRoutes('items', prefix) },
          {
            name: 'categories',
            actions: ['categories.list', 'categories.get', 'categories.findOne', 'categories.create', 'categories.count', 'categories.exists'],
            routes: [
              { action: 'categories.list', method: 'POST', path: `${prefix}/categories/search` },
              { action: 'categories.findOne', method: 'POST', path: `${prefix}/categories/find-one` },
              { action: 'categories.create', method: 'POST', path: `${prefix}/categories` },
              { action: 'categories.count', method: 'POST', path: `${prefix}/categories/count` },
              { action: 'categories.exists', method: 'POST', path: `${prefix}/categories/exists` },
            ],
          },
          { name: 'readings', actions: CRUD_ORDER.map((action) => `readings.${action}`), routes: defaultRoutes('readings', prefix) },
          { name: 'counters', actions: BULK_ORDER.map((action) => `counters.${action}`), routes: bulkRoutes('counters', prefix) },
          { name: 'kinds', actions: CRUD_ORDER.map((action) => `kinds.${action}`), routes: defaultRoutes('kinds', prefix) },
        ],
        actions: [{ name: 'ping', method: 'POST', path: `${prefix}/shop/ping` }],
      },
    ],
  };
}

describe('GET /_app/services', () => {
  const testbed = useServerTestbed();

  it('lists each service with its resources, actions in contract order, routes and custom actions', async () => {
    const server = await testbed.start({});
    const answer = await request(`${server.url}/_app/services`);
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^application\/json/);
    expect(answer.body).toEqual(expectedServices('/api'));
  });

  it('leaves switched-off operations out, and keeps an action whose route is switched off in actions only', async () => {
    const server = await testbed.start({});
    const { body } = await request(`${server.url}/_app/services`);
    const categories = body.services[0].resources.find((resource: { name: string }) => resource.name === 'categories');
    expect(categories.actions).not.toContain('categories.update');
    expect(categories.actions).not.toContain('categories.delete');
    expect(categories.actions).toContain('categories.get');
    expect(categories.routes.map((route: { action: string }) => route.action)).not.toContain('categories.get');
    expect(categories.routes).toContainEqual({ action: 'categories.list', method: 'POST', path: '/api/categories/search' });
  });

  it('gives every path in full, with the server prefix', async () => {
    const server = await testbed.start({ prefix: '/v2' });
    const answer = await request(`${server.url}/_app/services`);
    expect(answer.body).toEqual(expectedServices('/v2'));
  });

  it('gives paths without a prefix when the prefix is "/"', async () => {
    const server = await testbed.start({ prefix: '/' });
    const answer = await request(`${server.url}/_app/services`);
    expect(answer.body).toEqual(expectedServices(''));
  });

  it('lists paths that the server really answers', async () => {
    const server = await testbed.start({});
    const { body } = await request(`${server.url}/_app/services`);
    const ping = body.services[0].actions[0];
    const answer = await request(server.url + ping.path, { method: ping.method, body: {} });
    expect(answer.status).toBe(200);
    const search = body.services[0].resources[2].routes[0];
    const forbidden = await request(server.url + search.path, { method: search.method, body: {} });
    expect(forbidden.body.error.code).toBe('FORBIDDEN'); // the route exists; categories' access has no authorize
  });
});
