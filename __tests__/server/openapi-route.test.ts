// GET {openApiPath} (spec §4.2, §4.3): the raw OpenAPI document, at the root whatever the prefix, built
// once at construction, listing exactly the routes the server mounts; absent with `docs: false`.
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { createServer, SetupError } from 'tessera-api';
import { operationsOf } from '../helpers/openapi-reader';
import { validateOpenApi } from '../helpers/openapi-validator';
import { request } from '../helpers/request';
import { useServerTestbed } from '../helpers/server-testbed';
import type { RunningServer } from '../helpers/test-app';

/** Listens with an application built here (test-app's listen always adds a context factory). */
async function listenApp(app: Express): Promise<RunningServer> {
  const server = await new Promise<ReturnType<Express['listen']>>((resolve) => {
    const started = app.listen(0, '127.0.0.1', () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** `METHOD path operationId` of every route /_app/services lists, paths in OpenAPI form. */
function listedRoutes(services: any): string[] {
  const routes: string[] = [];
  for (const service of services.services) {
    for (const resource of service.resources) for (const route of resource.routes) routes.push(`${route.method} ${route.path} ${service.name}.${route.action}`);
    for (const action of service.actions) routes.push(`${action.method} ${action.path} ${service.name}.${action.name}`);
  }
  return routes.map((route) => route.replace(/:(\w+)/g, '{$1}')).sort();
}

describe('GET /openapi.json', () => {
  const testbed = useServerTestbed();
  const servers: RunningServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });

  it('serves a valid OpenAPI 3.1.0 document as JSON at the root, whatever the prefix', async () => {
    const { url } = await testbed.start({ prefix: '/v2' });
    const answer = await request(`${url}/openapi.json`);
    expect(answer.status).toBe(200);
    expect(answer.contentType).toMatch(/^application\/json/);
    expect(answer.body.openapi).toBe('3.1.0');
    expect(await validateOpenApi(answer.body)).toEqual({ valid: true });
    expect((await request(`${url}/v2/openapi.json`)).status).toBe(404);
  });

  it.each(['/api', '/v2', '/'])('lists every route /_app/services lists, with its method, path and operationId, and nothing else (prefix %s)', async (prefix) => {
    const { url } = await testbed.start({ prefix });
    const listed = listedRoutes((await request(`${url}/_app/services`)).body);
    const documented = operationsOf((await request(`${url}/openapi.json`)).body).map(({ method, path, operationId }) => `${method} ${path} ${operationId}`);
    expect(documented.sort()).toEqual(listed);
    expect(listed).toContain(`POST ${prefix === '/' ? '' : prefix}/categories/search shop.categories.list`); // a moved route
    expect(listed.some((route) => route.endsWith('shop.categories.get'))).toBe(false); // routes.get: false
  });

  it('answers 404 NOT_FOUND with docs: false', async () => {
    const { url } = await testbed.start({ docs: false });
    const answer = await request(`${url}/openapi.json`);
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe('NOT_FOUND');
  });

  it('serves the document at a custom openApiPath instead', async () => {
    const { url } = await testbed.start({ openApiPath: '/spec/v1.json' });
    const answer = await request(`${url}/spec/v1.json`);
    expect(answer.status).toBe(200);
    expect(answer.body.openapi).toBe('3.1.0');
    expect((await request(`${url}/openapi.json`)).status).toBe(404);
  });

  it.each(['openapi.json', '/spec/', '/a b', '//x', '/spec/:id'])('refuses the malformed openApiPath %j with a SetupError', (openApiPath) => {
    expect(() => createServer({ services: [testbed.service.shop], openApiPath, requestLogging: false })).toThrow(SetupError);
    expect(() => createServer({ services: [testbed.service.shop], openApiPath, requestLogging: false })).toThrow(/openApiPath/);
  });

  it('refuses an openApiPath that a server route or a GET action route would answer', () => {
    const start = (options: object) => () => createServer({ services: [testbed.service.shop], requestLogging: false, ...options });
    expect(start({ openApiPath: '/_health' })).toThrow(/openApiPath "\/_health"/);
    expect(start({ prefix: '', openApiPath: '/notes/spec.json' })).toThrow(/GET \/notes\/:id \(notes\.get\)/);
    expect(start({ prefix: '', openApiPath: '/notes/spec/json' })).not.toThrow();
  });

  it('builds the document once, at construction: later declarations do not appear and every answer is the same bytes', async () => {
    const { url } = await testbed.start();
    const first = await request(`${url}/openapi.json`);
    testbed.service.shop.action('late', { handler: () => null });
    const second = await request(`${url}/openapi.json`);
    expect(second.text).toBe(first.text);
    expect(first.text).not.toContain('shop.late');
  });

  it('takes the default title and version, the given description, and documents 401 only with a context factory', async () => {
    const plain = await listenApp(createServer({ services: [testbed.service.shop], requestLogging: false }));
    servers.push(plain);
    const document = (await request(`${plain.url}/openapi.json`)).body;
    expect(document.info).toEqual({ title: 'Tessera API Mesh', version: '1.0.0' });
    expect(operationsOf(document).every(({ operation }) => operation.responses['401'] === undefined)).toBe(true);

    const { url } = await testbed.start({ title: 'Shop', version: '3.2.1', description: 'Everything in the shop' });
    const described = (await request(`${url}/openapi.json`)).body;
    expect(described.info).toEqual({ title: 'Shop', version: '3.2.1', description: 'Everything in the shop' });
    expect(operationsOf(described).every(({ operation }) => operation.responses['401'] !== undefined)).toBe(true);
  });

  it('answers 401 where it documents 401: the context factory runs for every action route', async () => {
    const { url } = await testbed.start();
    const answer = await request(`${url}/api/notes/query`, { method: 'POST', body: {}, headers: { 'x-test-user': 'bad' } });
    expect(answer.status).toBe(401);
    expect(answer.body.error.code).toBe('UNAUTHORIZED');
  });
});
