// The `cors` option in every handler mode: a preflight is answered for every action route (crud and custom
// actions), an allowed origin gets the CORS headers on its answers and another origin none; without the option
// nothing changes. The browser's side of it is in pages/cors-browser.test.ts.
import { createServer } from 'tessera-api';
import { BuiltBundle } from '../helpers/bundle-loader';
import { openDatabase, type TestDatabase } from '../helpers/databases';
import { clearRegistry, defineTestService, HANDLER_MODES, listen, type TestServer, type TestService } from '../helpers/test-app';

const APP = 'https://app.example.com';
const OTHER = 'https://evil.example.net';

interface ServicesRoute {
  action: string;
  method: string;
  path: string;
}

/** Every crud route the server lists (/_app/services), with a concrete id for `:id`. */
async function actionRoutes(server: TestServer): Promise<ServicesRoute[]> {
  const { services } = (await (await server.fetch('/_app/services')).json()) as { services: { resources: { routes: ServicesRoute[] }[] }[] };
  const routes = services.flatMap((service) => service.resources.flatMap((resource) => resource.routes));
  return routes.map((route) => ({ ...route, path: route.path.replace(':id', '1') }));
}

function preflight(server: TestServer, path: string, origin: string, method: string): Promise<globalThis.Response> {
  return server.fetch(path, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization,content-type' } });
}

describe('cors', () => {
  let database: TestDatabase;
  let service: TestService;
  const bundle = new BuiltBundle();

  beforeAll(async () => {
    clearRegistry();
    database = await openDatabase('sqlite');
    await database.reset();
    service = defineTestService(database);
  });
  afterAll(async () => {
    bundle.remove();
    await database.close();
    clearRegistry();
  });

  describe.each(HANDLER_MODES)('%s handlers', (mode) => {
    let server: TestServer;
    beforeAll(async () => {
      server = await listen({ services: [service.shop], cors: { origin: [APP, /^http:\/\/localhost:\d+$/], credentials: true } }, { mode, bundle });
    });
    afterAll(() => server.close());

    it('answers the preflight of every action route, crud and custom, for an allowed origin', async () => {
      const routes = [...(await actionRoutes(server)), { action: 'ping', method: 'POST', path: '/api/shop/ping' }];
      expect(routes.length).toBeGreaterThan(30);
      for (const route of routes) {
        const answer = await preflight(server, route.path, APP, route.method);
        expect([route.path, answer.status]).toEqual([route.path, 204]);
        expect(answer.headers.get('access-control-allow-origin')).toBe(APP);
        expect(answer.headers.get('access-control-allow-credentials')).toBe('true');
        expect(answer.headers.get('access-control-allow-methods')?.split(',')).toContain(route.method);
        expect(answer.headers.get('access-control-allow-headers')).toBe('authorization,content-type');
        expect(answer.headers.get('access-control-max-age')).toBe('600');
        expect(answer.headers.get('vary')).toContain('Origin');
      }
    });

    it('allows an origin by pattern', async () => {
      const answer = await preflight(server, '/api/notes/query', 'http://localhost:5173', 'POST');
      expect(answer.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    });

    it('gives another origin no CORS header: the browser refuses the answer', async () => {
      const answer = await preflight(server, '/api/notes/query', OTHER, 'POST');
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
      const call = await server.fetch('/api/notes/query', { method: 'POST', headers: { origin: OTHER } });
      expect(call.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('adds the CORS headers to the answers of an allowed origin, exposing the request id and rate limit fields', async () => {
      for (const answer of [await server.fetch('/api/notes/query', { method: 'POST', headers: { origin: APP } }), await server.fetch('/api/items/1', { headers: { origin: APP } })]) {
        expect(answer.headers.get('access-control-allow-origin')).toBe(APP);
        expect(answer.headers.get('access-control-expose-headers')).toBe('X-Request-Id,RateLimit,RateLimit-Policy,Retry-After,WWW-Authenticate');
      }
    });
  });

  it('changes nothing without the option: OPTIONS reaches the JSON 404, answers carry no CORS header', async () => {
    const server = await listen({ services: [service.shop] });
    try {
      const answer = await preflight(server, '/api/notes/query', APP, 'POST');
      expect(answer.status).toBe(404);
      expect(answer.headers.get('access-control-allow-origin')).toBeNull();
      expect((await server.fetch('/api/notes/query', { method: 'POST', headers: { origin: APP } })).headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await server.close();
    }
  });

  it('answers any origin with origin "*", without credentials', async () => {
    const server = await listen({ services: [service.shop], cors: { origin: '*' } });
    try {
      const answer = await preflight(server, '/api/shop/ping', OTHER, 'POST');
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
      expect(answer.headers.get('access-control-allow-credentials')).toBeNull();
    } finally {
      await server.close();
    }
  });

  it('answers an origin a function allows, and says Vary: Origin to one it refuses, as a list does (a shared cache must not reuse the answer)', async () => {
    const server = await listen({ services: [service.shop], cors: { origin: (origin) => origin === APP } });
    try {
      const allowed = await server.fetch('/api/notes/query', { method: 'POST', headers: { origin: APP } });
      expect([allowed.headers.get('access-control-allow-origin'), allowed.headers.get('vary')]).toEqual([APP, 'Origin']);
      for (const answer of [await preflight(server, '/api/notes/query', OTHER, 'POST'), await server.fetch('/api/notes/query', { method: 'POST', headers: { origin: OTHER } })]) {
        expect([answer.headers.get('access-control-allow-origin'), answer.headers.get('vary')?.split(', ')[0]]).toEqual([null, 'Origin']);
      }
    } finally {
      await server.close();
    }
  });

  it.each([
    [{}, 'cors.origin is required'],
    [{ origin: 'https://app.example.com/' }, 'cors.origin "https://app.example.com/" is not an origin (scheme://host[:port], without a path or a trailing slash)'],
    [{ origin: [] }, 'cors.origin must name at least one origin'],
    [{ origin: '*', credentials: true }, 'cors: credentials cannot go with origin "*"'],
    [{ origin: APP, methods: 'GET' }, 'cors.methods must be a list of HTTP names'],
    [{ origin: APP, maxAge: -1 }, 'cors.maxAge must be a whole number of seconds'],
    [{ origin: APP, origins: [APP] }, 'cors.origins is not a cors option'],
  ])('refuses cors %j at construction', (cors, message) => {
    expect(() => createServer({ services: [service.shop], cors: cors as never })).toThrow(message);
  });
});
