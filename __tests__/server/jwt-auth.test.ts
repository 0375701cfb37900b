// `auth: jwt(…)` in every handler mode: HMAC tokens and a real local JWKS endpoint whose key rotates. A verified
// token's claims reach authorize, scope, scrub and custom actions as the caller context; a bad, expired or not yet
// valid token answers 401 with `WWW-Authenticate: Bearer error="invalid_token"`, before the body is read; a key set
// that cannot be had answers 503, never 500.
import { BuiltBundle } from '../helpers/bundle-loader';
import { openDatabase, type TestDatabase } from '../helpers/databases';
import { JwksServer } from '../helpers/jwks-server';
import { AUDIENCE, hmacToken, ISSUER, now, SECRET } from '../helpers/test-tokens';
import { clearRegistry, defineTestService, HANDLER_MODES, listen, type TestServer, type TestService } from '../helpers/test-app';
import { jwt, type JwtAuth } from 'tessera-api';

const toUser = (claims: Record<string, unknown>) => ({ user: { id: claims.sub, role: claims.role } });
const hmacAuth = (): JwtAuth => jwt({ secret: SECRET, issuer: ISSUER, audience: AUDIENCE, claims: toUser });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

interface Answer {
  status: number;
  challenge: string | null;
  body: any;
}

async function call(server: TestServer, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const sent = body === undefined ? headers : { 'content-type': 'application/json', ...headers };
  const response = await server.fetch(path, { method, headers: sent, body });
  return { status: response.status, challenge: response.headers.get('www-authenticate'), body: await response.json() };
}

describe('auth: jwt()', () => {
  let database: TestDatabase;
  let service: TestService;
  const bundle = new BuiltBundle();
  const jwks = new JwksServer();

  beforeAll(async () => {
    clearRegistry();
    database = await openDatabase('sqlite');
    service = defineTestService(database);
    service.shop.action('whoami', { handler: ({ ctx }) => ({ user: ctx.user ?? null, requestId: ctx.requestId ?? null, tenant: ctx.tenant ?? null }) });
    await jwks.start();
  });
  beforeEach(() => database.reset());
  afterAll(async () => {
    bundle.remove();
    await jwks.stop();
    await database.close();
    clearRegistry();
  });

  describe.each(HANDLER_MODES)('%s handlers, HMAC tokens', (mode) => {
    let server: TestServer;
    beforeAll(async () => {
      server = await listen({ services: [service.shop], auth: hmacAuth(), context: undefined }, { mode, bundle });
    });
    afterAll(() => server.close());

    it('hands a verified token\'s claims to authorize, scope, scrub and the hooks (ctx.user)', async () => {
      const alice = bearer(await hmacToken({ sub: 'alice', role: 'member' }));
      const admin = bearer(await hmacToken({ sub: 'admin', role: 'admin' }));
      const created = await call(server, 'POST', '/api/items', alice, JSON.stringify({ name: 'Lamp', email: 'alice@example.com' }));
      expect(created).toMatchObject({ status: 201, body: { name: 'Lamp', ownerId: 'alice', email: 'hidden' } });
      await call(server, 'POST', '/api/items', admin, JSON.stringify({ name: 'Desk' }));
      const mine = await call(server, 'POST', '/api/items/query', alice, '{}');
      expect(mine.body.items.map((item: { name: string }) => item.name)).toEqual(['Lamp']);
      const all = await call(server, 'POST', '/api/items/query', admin, '{}');
      expect(all.body.items.map((item: { email: string | null }) => item.email)).toEqual(['alice@example.com', null]);
    });

    it('lets a request without a token through as anonymous: public routes answer, guarded ones are FORBIDDEN', async () => {
      expect((await call(server, 'POST', '/api/notes/query', {}, '{}')).status).toBe(200);
      expect(await call(server, 'POST', '/api/items/query', {}, '{}')).toMatchObject({ status: 403, challenge: null, body: { error: { code: 'FORBIDDEN' } } });
    });

    it('gives custom actions the claims and the request id', async () => {
      const answer = await call(server, 'POST', '/api/shop/whoami', bearer(await hmacToken({ sub: 'bob', role: 'member' })), '{}');
      expect(answer.body).toEqual({ user: { id: 'bob', role: 'member' }, requestId: expect.any(String), tenant: null });
    });

    it.each([
      ['an expired token', () => hmacToken({ sub: 'alice' }, { exp: now() - 60 }), 'the bearer token has expired'],
      ['a token that is not valid yet', () => hmacToken({ sub: 'alice' }, { nbf: now() + 600 }), 'the bearer token is not valid yet'],
      ['a token signed with another secret', () => hmacToken({ sub: 'alice' }, { secret: 'another-secret-of-at-least-32-bytes!' }), 'the bearer token is not valid'],
      ['a token of another issuer', () => hmacToken({ sub: 'alice' }, { issuer: 'https://evil.test/' }), 'the bearer token comes from another issuer'],
      ['a token for another audience', () => hmacToken({ sub: 'alice' }, { audience: 'https://other.test' }), 'the bearer token is meant for another audience'],
      ['an unsigned token (alg none)', async () => `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'admin', iss: ISSUER, aud: AUDIENCE })).toString('base64url')}.`, 'the bearer token is not valid'],
      ['"constructor"', async () => 'constructor', 'the bearer token is not valid'],
      ['"__proto__"', async () => '__proto__', 'the bearer token is not valid'],
      ['a cut token', async () => (await hmacToken({ sub: 'alice' })).slice(0, -5), 'the bearer token is not valid'],
      // Signed, but a time claim is not a number: a malformed token, whatever the claim.
      ['a token whose "iat" is not a number', () => hmacToken({ sub: 'alice', iat: 'x' }), 'the bearer token is not valid'],
      ['a token whose "nbf" is not a number', () => hmacToken({ sub: 'alice', nbf: 'soon' }), 'the bearer token is not valid'],
    ])('answers 401 invalid_token for %s, whatever the route', async (_name, token, message) => {
      for (const [method, path] of [['POST', '/api/items/query'], ['POST', '/api/notes/query'], ['GET', '/api/notes/1'], ['POST', '/api/shop/whoami']]) {
        const answer = await call(server, method, path, bearer(await token()), method === 'POST' ? '{}' : undefined);
        expect(answer).toEqual({ status: 401, challenge: `Bearer error="invalid_token", error_description="${message}"`, body: { error: { code: 'UNAUTHORIZED', message } } });
      }
    });

    it('answers credentials of another scheme with the bare Bearer challenge (RFC 6750 §3.1)', async () => {
      const answer = await call(server, 'POST', '/api/notes/query', { authorization: 'Basic YWxpY2U6c2VjcmV0' }, '{}');
      expect(answer).toEqual({ status: 401, challenge: 'Bearer', body: { error: { code: 'UNAUTHORIZED', message: 'the Authorization header must be "Bearer <token>"' } } });
    });

    it('refuses a bad token before reading the body (401, not 400 for the malformed JSON)', async () => {
      const answer = await call(server, 'POST', '/api/notes', bearer('not-a-token'), '{"title": ');
      expect(answer.status).toBe(401);
      expect(await database.raw('SELECT id FROM t_notes')).toEqual([]);
    });
  });

  describe.each(HANDLER_MODES)('%s handlers, a JWKS endpoint', (mode) => {
    const errors: string[] = [];
    let server: TestServer;
    beforeAll(async () => {
      // cooldownDuration 0: a token with an unknown kid fetches the set again at once (the default waits 30 s).
      const auth = jwt({ jwksUrl: jwks.url, issuer: ISSUER, audience: AUDIENCE, jwks: { cooldownDuration: 0 } });
      server = await listen({ services: [service.shop], auth, context: undefined, errorLogger: (line) => void errors.push(line) }, { mode, bundle });
    });
    afterAll(() => server.close());

    it('verifies tokens of the published key, fetching the set once for many requests', async () => {
      const before = jwks.fetches;
      const token = await jwks.sign({ sub: 'carol' });
      for (let index = 0; index < 5; index++) {
        const answer = await call(server, 'POST', '/api/shop/whoami', bearer(token), '{}');
        expect(answer.body.user).toMatchObject({ sub: 'carol', iss: ISSUER, aud: AUDIENCE });
      }
      expect(jwks.fetches - before).toBe(1);
    });

    it('follows a key rotation: a token of the new key fetches the set again and passes', async () => {
      await call(server, 'POST', '/api/shop/whoami', bearer(await jwks.sign({ sub: 'carol' })), '{}'); // the set is cached
      const before = jwks.fetches;
      await jwks.rotate();
      const answer = await call(server, 'POST', '/api/shop/whoami', bearer(await jwks.sign({ sub: 'dave' })), '{}');
      expect(answer).toMatchObject({ status: 200, body: { user: { sub: 'dave' } } });
      expect(jwks.fetches - before).toBe(1);
    });

    it('answers 401 invalid_token for a token of a key the issuer never published', async () => {
      const forged = await jwks.sign({ sub: 'admin' }, { kid: await jwks.unpublishedKey() });
      const answer = await call(server, 'POST', '/api/shop/whoami', bearer(forged), '{}');
      expect(answer).toEqual({ status: 401, challenge: 'Bearer error="invalid_token", error_description="the bearer token is not valid"', body: { error: { code: 'UNAUTHORIZED', message: 'the bearer token is not valid' } } });
    });

    it('answers 503 SERVICE_UNAVAILABLE with Retry-After while the key set cannot be had, and logs it', async () => {
      const fresh = await listen({ services: [service.shop], auth: jwt({ jwksUrl: jwks.url }), context: undefined, errorLogger: (line) => void errors.push(line) }, { mode, bundle });
      jwks.setDown(true);
      try {
        errors.length = 0;
        const response = await fresh.fetch('/api/shop/whoami', { method: 'POST', headers: bearer(await jwks.sign({ sub: 'erin' })) });
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('1');
        expect(await response.json()).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: 'the signing keys of the token issuer cannot be fetched; retry later' } });
        expect(errors).toEqual([expect.stringMatching(/^SERVICE_UNAVAILABLE POST \/api\/shop\/whoami: JOSEError \(ERR_JOSE_GENERIC\) id=/)]);
      } finally {
        jwks.setDown(false);
        await fresh.close();
      }
    });
  });
});
