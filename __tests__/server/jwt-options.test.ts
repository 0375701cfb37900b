// jwt()'s options and how `auth` meets the rest of the server: setup errors named at declaration, `required`,
// `auth` with `context`, a `secret()` reference, the JWKS cooldown, the challenge of a context factory's 401, and
// the OpenAPI document's bearer JWT scheme (checked by a real validator).
import { createServer, jwt, overrideSecret, resetSecrets, secret, TesseraError } from 'tessera-api';
import { openDatabase, type TestDatabase } from '../helpers/databases';
import { JwksServer } from '../helpers/jwks-server';
import { AUDIENCE, hmacToken, ISSUER, SECRET } from '../helpers/test-tokens';
import { validateOpenApi } from '../helpers/openapi-validator';
import { clearRegistry, defineTestService, listen, type TestService } from '../helpers/test-app';

const JWT_SECRET = secret('TEST_JWT_SECRET');

describe('jwt() options', () => {
  let database: TestDatabase;
  let service: TestService;
  beforeAll(async () => {
    clearRegistry();
    database = await openDatabase('sqlite');
    await database.reset();
    service = defineTestService(database);
    service.shop.action('whoami', { handler: ({ ctx }) => ({ user: ctx.user ?? null, tenant: ctx.tenant ?? null, requestId: ctx.requestId ?? null }) });
  });
  afterAll(async () => {
    await database.close();
    clearRegistry();
    resetSecrets();
  });

  it.each([
    [{}, 'jwt: give exactly one of secret (HMAC) and jwksUrl'],
    [{ secret: SECRET, jwksUrl: 'https://issuer.test/jwks' }, 'jwt: give exactly one of secret (HMAC) and jwksUrl'],
    [{ secret: 'short' }, 'jwt: secret must be at least 32 bytes (it has 5)'],
    [{ secret: SECRET, algorithms: ['RS256'] }, 'jwt: algorithm "RS256" does not go with a secret'],
    [{ jwksUrl: 'https://issuer.test/jwks', algorithms: ['HS256'] }, 'jwt: algorithm "HS256" does not go with a JWKS'],
    [{ jwksUrl: 'https://issuer.test/jwks', algorithms: ['none'] }, 'jwt: algorithm "none" does not go with a JWKS'],
    [{ jwksUrl: '/jwks.json' }, 'jwt: jwksUrl must be an absolute URL'],
    [{ jwksUrl: 'ftp://issuer.test/jwks' }, 'jwt: jwksUrl must be an http(s) URL'],
    [{ secret: SECRET, audiences: 'x' }, 'jwt: audiences is not a jwt option'],
    [{ secret: SECRET, jwks: { cacheMaxAge: 10 } }, 'jwt: jwks (the key set cache) goes with jwksUrl, not secret'],
    [{ jwksUrl: 'https://issuer.test/jwks', jwks: { cooldown: 10 } }, 'jwt: jwks.cooldown is not a JWKS cache option'],
    [{ secret: SECRET, issuer: '' }, 'jwt: issuer must be a non-empty string or list of strings'],
    [{ secret: SECRET, claims: 'user' }, 'jwt: claims must be a function'],
    [{ secret: SECRET, clockTolerance: -1 }, 'jwt: clockTolerance must be a number of seconds, 0 or more'],
  ])('refuses jwt(%j) when declared', (options, message) => {
    expect(() => jwt(options as never)).toThrow(message);
  });

  it('refuses an auth that jwt() did not make, and never quotes a short secret() value', () => {
    overrideSecret('TEST_JWT_SECRET', 'tiny-value-9d2e');
    expect(() => createServer({ services: [service.shop], auth: { secret: SECRET } as never })).toThrow('auth must be what jwt({ … }) returns');
    const error = (() => {
      try {
        createServer({ services: [service.shop], auth: jwt({ secret: JWT_SECRET }) });
      } catch (thrown) {
        return thrown as Error;
      }
    })();
    expect(error?.message).toBe('jwt: secret TEST_JWT_SECRET must be at least 32 bytes (it has 15)');
  });

  it('reads a secret() reference at construction', async () => {
    overrideSecret('TEST_JWT_SECRET', SECRET);
    const server = await listen({ services: [service.shop], auth: jwt({ secret: JWT_SECRET }), context: undefined });
    try {
      const answer = await server.fetch('/api/shop/whoami', { method: 'POST', headers: { authorization: `Bearer ${await hmacToken({ sub: 'alice' })}` } });
      expect(await answer.json()).toMatchObject({ user: { sub: 'alice' } });
    } finally {
      await server.close();
    }
  });

  it('required: true answers 401 with the bare challenge for a request without a token', async () => {
    const server = await listen({ services: [service.shop], auth: jwt({ secret: SECRET, required: true }), context: undefined });
    try {
      const answer = await server.fetch('/api/notes/query', { method: 'POST' });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
      expect(await answer.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: 'a bearer token is required' } });
    } finally {
      await server.close();
    }
  });

  it('runs context after auth, with the base it built: (req, { user, requestId }) => ctx', async () => {
    const bases: unknown[] = [];
    const context = (req: { headers: Record<string, unknown> }, base: Record<string, unknown>) => {
      bases.push(base);
      if (req.headers['x-tenant'] === undefined) throw new TesseraError('UNAUTHORIZED', 'a tenant is required');
      return { ...base, tenant: req.headers['x-tenant'] };
    };
    const server = await listen({ services: [service.shop], auth: jwt({ secret: SECRET }), context });
    try {
      const token = await hmacToken({ sub: 'alice' });
      const answer = await server.fetch('/api/shop/whoami', { method: 'POST', headers: { authorization: `Bearer ${token}`, 'x-tenant': 'acme' } });
      expect(await answer.json()).toEqual({ user: expect.objectContaining({ sub: 'alice' }), tenant: 'acme', requestId: answer.headers.get('x-request-id') });
      expect(bases).toEqual([{ user: expect.objectContaining({ sub: 'alice' }), requestId: answer.headers.get('x-request-id') }]);
      // A 401 of the context factory names the scheme too (RFC 9110: every 401 carries a challenge).
      const refused = await server.fetch('/api/shop/whoami', { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toBe('Bearer');
      // A bad token never reaches the context factory.
      bases.length = 0;
      expect((await server.fetch('/api/shop/whoami', { method: 'POST', headers: { authorization: 'Bearer x' } })).status).toBe(401);
      expect(bases).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('with the default cooldown, fetches the key set once, however many unknown keys tokens name', async () => {
    const jwks = await new JwksServer().start();
    const server = await listen({ services: [service.shop], auth: jwt({ jwksUrl: jwks.url, issuer: ISSUER, audience: AUDIENCE }), context: undefined });
    try {
      expect((await server.fetch('/api/shop/whoami', { method: 'POST', headers: { authorization: `Bearer ${await jwks.sign({ sub: 'a' })}` } })).status).toBe(200);
      for (let index = 0; index < 5; index++) {
        const forged = await jwks.sign({ sub: 'admin' }, { kid: await jwks.unpublishedKey() });
        expect((await server.fetch('/api/shop/whoami', { method: 'POST', headers: { authorization: `Bearer ${forged}` } })).status).toBe(401);
      }
      expect(jwks.fetches).toBe(1);
    } finally {
      await server.close();
      await jwks.stop();
    }
  });

  it('publishes the bearer JWT scheme and 401 in the OpenAPI document, which a validator accepts', async () => {
    const server = await listen({ services: [service.shop], auth: jwt({ secret: SECRET }), context: undefined });
    try {
      const document = (await (await server.fetch('/openapi.json')).json()) as any;
      expect(document.components.securitySchemes).toEqual({ bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: expect.any(String) } });
      expect(document.paths['/api/items/query'].post.security).toEqual([{ bearer: [] }]);
      expect(document.paths['/api/notes/query'].post.responses['401']).toEqual({ $ref: '#/components/responses/Unauthorized' });
      expect(document.components.responses.Unauthorized.headers['WWW-Authenticate']).toBeDefined();
      expect(await validateOpenApi(document)).toEqual({ valid: true });
    } finally {
      await server.close();
    }
  });
});
