// The `rateLimit` option in every handler mode, counted in memory: each call spends its operation's cost from the
// caller's budget (count and includeTotal cost more than a get), answers carry the draft's RateLimit fields, and a
// caller over budget gets 429 RATE_LIMITED with Retry-After before anything runs. Callers by IP, token or claim.
import { createServer, jwt, type ServerOptions } from 'tessera-api';
import { BuiltBundle } from '../helpers/bundle-loader';
import { openDatabase, type TestDatabase } from '../helpers/databases';
import { validateOpenApi } from '../helpers/openapi-validator';
import { hmacToken, SECRET } from '../helpers/test-tokens';
import { clearRegistry, defineTestService, HANDLER_MODES, listen, type TestServer, type TestService } from '../helpers/test-app';

interface Limited {
  status: number;
  rateLimit: string | null;
  retryAfter: string | null;
  body: any;
}

async function call(server: TestServer, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Limited> {
  const sent = body === undefined ? headers : { 'content-type': 'application/json', ...headers };
  const response = await server.fetch(path, { method, headers: sent, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: response.status, rateLimit: response.headers.get('ratelimit'), retryAfter: response.headers.get('retry-after'), body: await response.json() };
}

/** The remaining points of a RateLimit field (`"default";r=7;t=60`). */
const remaining = (answer: Limited) => Number(/;r=(\d+);/.exec(answer.rateLimit ?? '')?.[1]);

describe('rateLimit (in memory)', () => {
  let database: TestDatabase;
  let service: TestService;
  const bundle = new BuiltBundle();
  const servers: TestServer[] = [];

  beforeAll(async () => {
    clearRegistry();
    database = await openDatabase('sqlite');
    service = defineTestService(database);
  });
  beforeEach(() => database.reset());
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });
  afterAll(async () => {
    bundle.remove();
    await database.close();
    clearRegistry();
  });

  describe.each(HANDLER_MODES)('%s handlers', (mode) => {
    async function start(options: Omit<ServerOptions, 'services'>): Promise<TestServer> {
      const server = await listen({ services: [service.shop], ...options }, { mode, bundle });
      servers.push(server);
      return server;
    }

    it('spends one point per call and says what is left: RateLimit and RateLimit-Policy', async () => {
      const server = await start({ rateLimit: { points: 10, duration: 60 } });
      const response = await server.fetch('/api/notes/query', { method: 'POST' });
      expect(response.headers.get('ratelimit-policy')).toBe('"default";q=10;w=60');
      expect(response.headers.get('ratelimit')).toMatch(/^"default";r=9;t=(60|59)$/);
      expect(remaining(await call(server, 'GET', '/api/notes/00000000-0000-4000-8000-000000000000'))).toBe(8);
      expect(remaining(await call(server, 'POST', '/api/shop/ping', {}))).toBe(7);
    });

    it('weighs operations: a count costs 5, a list with includeTotal 5, a plain list 1', async () => {
      const server = await start({ rateLimit: { points: 20, duration: 60 } });
      expect(remaining(await call(server, 'POST', '/api/notes/query', {}))).toBe(19);
      expect(remaining(await call(server, 'POST', '/api/notes/query', { includeTotal: true }))).toBe(14);
      expect(remaining(await call(server, 'POST', '/api/notes/count', {}))).toBe(9);
      expect(remaining(await call(server, 'POST', '/api/notes/find-one', { includeTotal: true }))).toBe(8); // no total to count
    });

    it('answers 429 RATE_LIMITED with Retry-After once the budget is spent, and runs nothing', async () => {
      const server = await start({ rateLimit: { points: 6, duration: 60 } });
      expect((await call(server, 'POST', '/api/notes/count', {})).status).toBe(200);
      const refused = await call(server, 'POST', '/api/notes', { title: 'one too many' }); // 5 + 1 = 6: the last point
      expect(refused.status).toBe(201);
      const over = await call(server, 'POST', '/api/notes', { title: 'over budget' });
      expect(over).toEqual({ status: 429, rateLimit: expect.stringMatching(/^"default";r=0;t=\d+$/), retryAfter: expect.stringMatching(/^\d+$/), body: { error: { code: 'RATE_LIMITED', message: expect.stringMatching(/^rate limit exceeded: retry after \d+ s$/) } } });
      expect(Number(over.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(over.retryAfter)).toBeLessThanOrEqual(60);
      expect(await database.raw('SELECT title FROM t_notes')).toEqual([{ title: 'one too many' }]);
    });

    it('counts each caller on its own: by bearer token', async () => {
      const server = await start({ rateLimit: { points: 2, duration: 60, by: 'token' } });
      const as = (token: string) => ({ authorization: `Bearer ${token}` });
      expect((await call(server, 'POST', '/api/notes/query', {}, as('token-a'))).status).toBe(200);
      expect((await call(server, 'POST', '/api/notes/query', {}, as('token-a'))).status).toBe(200);
      expect((await call(server, 'POST', '/api/notes/query', {}, as('token-a'))).status).toBe(429);
      expect((await call(server, 'POST', '/api/notes/query', {}, as('token-b'))).status).toBe(200);
      expect((await call(server, 'POST', '/api/notes/query', {})).status).toBe(200); // no token: by IP
    });

    it('counts by the verified token\'s subject with auth, whatever token the caller holds', async () => {
      const server = await start({ auth: jwt({ secret: SECRET }), context: undefined, rateLimit: { points: 2, duration: 60 } });
      const alice = (token: string) => ({ authorization: `Bearer ${token}` });
      expect((await call(server, 'POST', '/api/notes/query', {}, alice(await hmacToken({ sub: 'alice', n: 1 })))).status).toBe(200);
      expect((await call(server, 'POST', '/api/notes/query', {}, alice(await hmacToken({ sub: 'alice', n: 2 })))).status).toBe(200);
      expect((await call(server, 'POST', '/api/notes/query', {}, alice(await hmacToken({ sub: 'alice', n: 3 })))).status).toBe(429);
      expect((await call(server, 'POST', '/api/notes/query', {}, alice(await hmacToken({ sub: 'bob' })))).status).toBe(200);
    });

    it('takes costs by action and by operationId; 0 leaves an operation unlimited', async () => {
      const server = await start({ rateLimit: { points: 10, duration: 60, costs: { get: 3, 'shop.notes.get': 4, 'shop.ping': 0 } } });
      expect(remaining(await call(server, 'GET', '/api/items/1', undefined, { 'x-test-user': '{"user":{"id":"a","role":"member"}}' }))).toBe(7);
      expect(remaining(await call(server, 'GET', '/api/notes/00000000-0000-4000-8000-000000000000'))).toBe(3);
      const unlimited = await call(server, 'POST', '/api/shop/ping', {});
      expect(unlimited).toMatchObject({ status: 200, rateLimit: null });
    });
  });

  it('caps the default weights at the budget: with 2 points a count costs 2, not 5', async () => {
    const server = await listen({ services: [service.shop], rateLimit: { points: 2, duration: 60 } });
    servers.push(server);
    expect(remaining(await call(server, 'POST', '/api/notes/count', {}))).toBe(0);
  });

  it('documents 429 on the limited operations only, with its headers, in a valid OpenAPI document', async () => {
    const server = await listen({ services: [service.shop], rateLimit: { points: 10, duration: 60, costs: { 'shop.ping': 0 } } });
    servers.push(server);
    const document = (await (await server.fetch('/openapi.json')).json()) as any;
    expect(document.paths['/api/notes/query'].post.responses['429']).toEqual({ $ref: '#/components/responses/RateLimited' });
    expect(document.paths['/api/shop/ping'].post.responses['429']).toBeUndefined();
    expect(Object.keys(document.components.responses.RateLimited.headers)).toEqual(['Retry-After', 'RateLimit', 'RateLimit-Policy']);
    expect(document.components.responses.RateLimited.headers['Retry-After'].schema.maximum).toBe(60);
    expect(await validateOpenApi(document)).toEqual({ valid: true });
  });

  it('declares the RateLimit headers where they are sent: limited answers, 2XX and 4XX, not an unlimited operation', async () => {
    const server = await listen({ services: [service.shop], rateLimit: { points: 10, duration: 60, costs: { 'shop.ping': 0 } }, cors: { origin: 'https://app.example.com' } });
    servers.push(server);
    const document = (await (await server.fetch('/openapi.json')).json()) as any;
    const origin = { origin: 'https://app.example.com' };
    const listed = await server.fetch('/api/notes/query', { method: 'POST', headers: origin });
    const missing = await server.fetch('/api/notes/00000000-0000-4000-8000-000000000000', { headers: origin });
    const pinged = await server.fetch('/api/shop/ping', { method: 'POST', headers: origin });
    expect([listed.status, missing.status, pinged.status]).toEqual([200, 404, 200]);
    const sent = (response: Response) => ['ratelimit', 'access-control-allow-origin'].filter((name) => response.headers.has(name));
    const declared = (response: any) => Object.keys(response.headers ?? {}).filter((name) => ['RateLimit', 'Access-Control-Allow-Origin'].includes(name)).map((name) => name.toLowerCase());
    expect(sent(listed)).toEqual(declared(document.paths['/api/notes/query'].post.responses['200']));
    expect(sent(missing)).toEqual(declared(document.components.responses.NotFound));
    expect(sent(pinged)).toEqual(declared(document.paths['/api/shop/ping'].post.responses['200']));
    expect([sent(listed), sent(missing), sent(pinged)]).toEqual([['ratelimit', 'access-control-allow-origin'], ['ratelimit', 'access-control-allow-origin'], ['access-control-allow-origin']]);
    expect(await validateOpenApi(document)).toEqual({ valid: true });
  });

  it.each([
    [{ points: 0, duration: 60 }, 'rateLimit.points must be a whole number from 1'],
    [{ points: 10, duration: 0.5 }, 'rateLimit.duration must be a whole number of seconds from 1'],
    [{ points: 10, duration: 60, costs: { lists: 2 } }, 'rateLimit.costs["lists"] names no crud action, mounted operation or includeTotal'],
    [{ points: 10, duration: 60, costs: { count: -1 } }, 'rateLimit.costs["count"] must be a whole number of points (0 or more)'],
    [{ points: 4, duration: 60, costs: { includeTotal: 4 } }, 'rateLimit: shop.notes.list costs 5 points with includeTotal, more than the 4 a caller has'],
    [{ points: 4, duration: 60, costs: { count: 5 } }, 'rateLimit: shop.notes.count costs 5 points, more than the 4 a caller has'],
    [{ points: 10, duration: 60, by: { claim: 'sub' } }, 'rateLimit.by: counting by a claim needs `auth`'],
    [{ points: 10, duration: 60, by: 'user' }, "rateLimit.by must be 'ip', 'token', { claim: '<name>' } or a function of the request"],
    [{ points: 10, duration: 60, redis: 'localhost:6379' }, 'rateLimit.redis must be a redis:// or rediss:// URL'],
    [{ points: 10, duration: 60, window: 60 }, 'rateLimit.window is not a rateLimit option'],
  ])('refuses rateLimit %j at construction', (rateLimit, message) => {
    expect(() => createServer({ services: [service.shop], rateLimit: rateLimit as never })).toThrow(message);
  });
});
