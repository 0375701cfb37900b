// Request ids (on by default) in every handler mode: a valid `X-Request-Id` is kept, anything else replaced by a
// UUID; the id is echoed in the answer, in the request log line, in the error log line and in `ctx.requestId`.
import { createServer } from 'tessera-api';
import { BuiltBundle } from '../helpers/bundle-loader';
import { openDatabase, type TestDatabase } from '../helpers/databases';
import { clearRegistry, defineTestService, HANDLER_MODES, listen, type TestServer, type TestService } from '../helpers/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request ids', () => {
  let database: TestDatabase;
  let service: TestService;
  const bundle = new BuiltBundle();

  beforeAll(async () => {
    clearRegistry();
    database = await openDatabase('sqlite');
    await database.reset();
    service = defineTestService(database);
    service.shop.action('whoami', { handler: ({ ctx }) => ({ requestId: ctx.requestId ?? null, user: ctx.user?.id ?? null }) });
    service.shop.action('boom', {
      handler: () => {
        throw new Error('a bug with a value-3c1f in its message');
      },
    });
  });
  afterAll(async () => {
    bundle.remove();
    await database.close();
    clearRegistry();
  });

  describe.each(HANDLER_MODES)('%s handlers', (mode) => {
    let server: TestServer;
    const requestLines: string[] = [];
    const errorLines: string[] = [];
    beforeAll(async () => {
      const options = { services: [service.shop], requestLogging: { logger: (line: string) => void requestLines.push(line) }, errorLogger: (line: string) => void errorLines.push(line) };
      server = await listen(options, { mode, bundle });
    });
    afterAll(() => server.close());

    const post = (path: string, headers: Record<string, string> = {}) => server.fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });

    it('makes a UUID for a request without one, answers it in X-Request-Id and hands it to the context', async () => {
      const answer = await post('/api/shop/whoami');
      const id = answer.headers.get('x-request-id');
      expect(id).toMatch(UUID);
      expect(await answer.json()).toEqual({ requestId: id, user: null });
    });

    it('keeps the caller\'s id when it is a plausible one, with the context factory\'s user beside it', async () => {
      const id = 'Root=1-67891233-abcdef012345678912345678';
      const answer = await post('/api/shop/whoami', { 'x-request-id': id, 'x-test-user': JSON.stringify({ user: { id: 'alice' } }) });
      expect(answer.headers.get('x-request-id')).toBe(id);
      expect(await answer.json()).toEqual({ requestId: id, user: 'alice' });
    });

    it.each([
      ['a space (a forged log line)', 'abc def'],
      ['a tab (a control character)', 'abc\tdef'],
      ['a quote', 'abc"def'],
      ['more than 200 characters', 'x'.repeat(201)],
      ['an empty value', ''],
    ])('replaces an id with %s by a new one', async (_name, given) => {
      const answer = await post('/api/shop/whoami', { 'x-request-id': given });
      expect(answer.headers.get('x-request-id')).toMatch(UUID);
      expect(((await answer.json()) as { requestId: string }).requestId).toBe(answer.headers.get('x-request-id'));
    });

    it('echoes the id on every answer: crud routes, errors, health, unknown routes', async () => {
      for (const response of [await server.fetch('/api/notes/query', { method: 'POST' }), await server.fetch('/api/items/1'), await server.fetch('/_health'), await server.fetch('/nowhere')]) {
        expect(response.headers.get('x-request-id')).toMatch(UUID);
      }
    });

    it('puts the id of an INTERNAL_ERROR answer in its request line and its error line', async () => {
      requestLines.length = 0;
      errorLines.length = 0;
      const answer = await post('/api/shop/boom', { 'x-request-id': 'trace-4f2a' });
      expect(answer.status).toBe(500);
      expect(answer.headers.get('x-request-id')).toBe('trace-4f2a');
      expect(errorLines).toEqual(['INTERNAL_ERROR POST /api/shop/boom: Error id=trace-4f2a']);
      expect(requestLines).toEqual([expect.stringMatching(/^POST \/api\/shop\/boom → 500 \(\d+\.\dms\) id=trace-4f2a$/)]);
    });
  });

  describe('options', () => {
    it('requestId: false sends no header and leaves requestId out of the context', async () => {
      const server = await listen({ services: [service.shop], requestId: false, context: undefined });
      try {
        const answer = await server.fetch('/api/shop/whoami', { method: 'POST' });
        expect(answer.headers.get('x-request-id')).toBeNull();
        expect(await answer.json()).toEqual({ requestId: null, user: null });
      } finally {
        await server.close();
      }
    });

    it('{ header, accept: false } answers in another header and never keeps the caller\'s id', async () => {
      const server = await listen({ services: [service.shop], requestId: { header: 'X-Correlation-Id', accept: false } });
      try {
        const answer = await server.fetch('/api/shop/whoami', { method: 'POST', headers: { 'x-correlation-id': 'mine-1' } });
        expect(answer.headers.get('x-correlation-id')).toMatch(UUID);
        expect(answer.headers.get('x-request-id')).toBeNull();
      } finally {
        await server.close();
      }
    });

    it('adds the id to a copy of what the context factory answers, never to its own object', async () => {
      const shared = Object.freeze({ user: { id: 'shared' } });
      const server = await listen({ services: [service.shop], context: () => shared });
      try {
        const answer = await server.fetch('/api/shop/whoami', { method: 'POST' });
        expect(await answer.json()).toEqual({ requestId: answer.headers.get('x-request-id'), user: 'shared' });
        expect(shared).toEqual({ user: { id: 'shared' } });
      } finally {
        await server.close();
      }
    });

    it.each([
      [{ header: 'X Request' }, 'requestId.header must be an HTTP header name'],
      [{ accept: 'yes' }, 'requestId.accept must be true or false'],
      [{ heder: 'X-Id' }, 'requestId.heder is not a requestId option (header, accept)'],
      ['on', 'requestId must be true, false or { header?, accept? }'],
    ])('refuses requestId %j at construction', (requestId, message) => {
      expect(() => createServer({ services: [service.shop], requestId: requestId as never })).toThrow(message);
    });
  });
});
