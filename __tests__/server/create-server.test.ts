// createServer (spec §4.3, CONTRACT §5): prefix, services, the JSON 404, the context factory, raw
// endpoints, bodyLimit, route collisions, service actions and mounting inside another Express app.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { createServer, crud, defineService, TesseraError } from 'tessera-api';
import type { TestDatabase } from '../helpers/databases';
import { request } from '../helpers/request';
import { useServerTestbed } from '../helpers/server-testbed';
import { ALICE, type RunningServer } from '../helpers/test-app';

/** Listens on a free port with any Express application (createServer's or one that mounts it). */
async function listenApp(app: Express): Promise<RunningServer> {
  const server: Server = await new Promise((resolve) => {
    const started = app.listen(0, '127.0.0.1', () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** A second service over its own database: `archive` with a public `memos` resource. */
function defineArchive(database: TestDatabase) {
  const archive = defineService({ name: 'archive', db: database.db });
  const { notes } = database.tables;
  archive.resource({ name: 'memos', table: notes, id: notes.id }).use(
    crud({ access: 'public', fields: { id: { read: true }, title: { read: true, create: true } } }),
  );
  return archive;
}

describe('createServer', () => {
  const testbed = useServerTestbed();

  describe('prefix', () => {
    it('mounts action routes under /api by default', async () => {
      const { url } = await testbed.start();
      const answer = await request(`${url}/api/notes/query`, { method: 'POST', body: {} });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ items: [] });
    });

    it('moves action routes under the given prefix and no longer answers them under /api', async () => {
      const { url } = await testbed.start({ prefix: '/v2' });
      const created = await request(`${url}/v2/notes`, { method: 'POST', body: { title: 'Moved' } });
      expect(created.status).toBe(201);
      const listed = await request(`${url}/v2/notes/query`, { method: 'POST', body: {} });
      expect(listed.status).toBe(200);
      expect(listed.body.items.map((row: { title: string }) => row.title)).toEqual(['Moved']);
      expect((await request(`${url}/v2/shop/ping`, { method: 'POST', body: {} })).status).toBe(200);

      const old = await request(`${url}/api/notes/query`, { method: 'POST', body: {} });
      expect(old.status).toBe(404);
      expect(old.body.error.code).toBe('NOT_FOUND');
    });

    it('keeps /_health and /_app/services at the root whatever the prefix', async () => {
      const { url } = await testbed.start({ prefix: '/v2' });
      expect((await request(`${url}/_health`)).status).toBe(200);
      const services = await request(`${url}/_app/services`);
      expect(services.status).toBe(200);
      expect(services.body.services[0].resources[0].routes[0]).toEqual({ action: 'notes.list', method: 'POST', path: '/v2/notes/query' });
      expect((await request(`${url}/v2/_health`)).status).toBe(404);
      expect((await request(`${url}/v2/_app/services`)).status).toBe(404);
    });
  });

  describe('services', () => {
    it('mounts every registered service by default', async () => {
      defineArchive(await testbed.openDatabase());
      const { url } = await testbed.start();
      expect((await request(`${url}/api/notes/query`, { method: 'POST', body: {} })).status).toBe(200);
      expect((await request(`${url}/api/memos/query`, { method: 'POST', body: {} })).status).toBe(200);
      const listed = await request(`${url}/_app/services`);
      expect(listed.body.services.map((entry: { name: string }) => entry.name)).toEqual(['shop', 'archive']);
    });

    it('mounts only the services of an explicit list', async () => {
      const archive = defineArchive(await testbed.openDatabase());
      const { url } = await testbed.start({ services: [archive] });
      expect((await request(`${url}/api/memos/query`, { method: 'POST', body: {} })).status).toBe(200);
      expect((await request(`${url}/api/notes/query`, { method: 'POST', body: {} })).status).toBe(404);
      expect((await request(`${url}/api/shop/ping`, { method: 'POST', body: {} })).status).toBe(404);
      const listed = await request(`${url}/_app/services`);
      expect(listed.body.services.map((entry: { name: string }) => entry.name)).toEqual(['archive']);
      expect((await request(`${url}/_health`)).body.checks).toEqual({ archive: 'ok' });
    });
  });

  describe('unknown routes', () => {
    it('answers 404 NOT_FOUND as JSON for a path no route serves', async () => {
      const { url } = await testbed.start();
      for (const path of ['/nowhere', '/api/nowhere/query', '/api']) {
        const answer = await request(url + path, { method: 'POST', body: {} });
        expect(answer.status).toBe(404);
        expect(answer.contentType).toMatch(/^application\/json/);
        expect(answer.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
      }
    });

    it('answers 404 NOT_FOUND as JSON for a wrong method on a known path', async () => {
      const { url } = await testbed.start();
      const wrong = [
        { method: 'PUT', path: '/api/notes/query' },
        { method: 'GET', path: '/api/notes' },
        { method: 'PUT', path: '/api/notes/some-id' },
        { method: 'GET', path: '/api/shop/ping' },
      ];
      for (const { method, path } of wrong) {
        const answer = await request(url + path, { method });
        expect({ method, path, status: answer.status }).toEqual({ method, path, status: 404 });
        expect(answer.contentType).toMatch(/^application\/json/);
        expect(answer.body).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
      }
    });

    it('answers 400 BAD_REQUEST as JSON, not INTERNAL_ERROR, for a path with malformed percent-encoding', async () => {
      const { url } = await testbed.start();
      // Express's router refuses to decode `:id` here (a URIError with status 400): a client mistake, not a server fault.
      const answer = await request(`${url}/api/notes/%E0%A4%A`);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ error: { code: 'BAD_REQUEST', message: expect.any(String) } });
    });
  });

  describe('context', () => {
    it('passes the value the context factory returns to authorize', async () => {
      const { url } = await testbed.start({ context: (req) => (req.headers['x-user'] === 'alice' ? { user: ALICE } : {}) });
      const signedIn = await request(`${url}/api/items/count`, { method: 'POST', body: {}, headers: { 'x-user': 'alice' } });
      expect(signedIn.status).toBe(200);
      expect(signedIn.body).toEqual({ count: 0 });
      const anonymous = await request(`${url}/api/items/count`, { method: 'POST', body: {} });
      expect(anonymous.status).toBe(403);
      expect(anonymous.body.error.code).toBe('FORBIDDEN');
    });

    it('passes the context to service actions', async () => {
      const { url } = await testbed.start({ context: async () => ({ user: ALICE }) });
      const answer = await request(`${url}/api/shop/ping`, { method: 'POST', body: {} });
      expect(answer.body).toEqual({ echo: null, user: 'alice' });
    });

    it('answers 401 UNAUTHORIZED with the error body when the factory throws TesseraError("UNAUTHORIZED")', async () => {
      const { url } = await testbed.start({
        context: () => {
          throw new TesseraError('UNAUTHORIZED', 'token expired');
        },
      });
      const answer = await request(`${url}/api/notes/query`, { method: 'POST', body: {} });
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ error: { code: 'UNAUTHORIZED', message: 'token expired' } });
    });

    it('answers 500 INTERNAL_ERROR without the message when the factory throws a plain Error', async () => {
      const logged: string[] = [];
      const { url } = await testbed.start({
        requestLogging: { logger: (line) => logged.push(line) },
        errorLogger: (line) => logged.push(line),
        context: () => {
          throw new Error('session store password=hunter2 refused');
        },
      });
      const answer = await request(`${url}/api/notes/query`, { method: 'POST', body: {} });
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: expect.any(String) } });
      expect(answer.text).not.toContain('hunter2');
      expect(answer.text).not.toContain('session store');
      expect(logged.join('\n')).not.toContain('hunter2');
      expect(logged.some((line) => line.startsWith('INTERNAL_ERROR POST /api/notes/query: '))).toBe(true);
    });
  });

  describe('endpoints', () => {
    it('mounts raw endpoints as given, outside the prefix and the JSON error model', async () => {
      const { url } = await testbed.start({
        prefix: '/v2',
        endpoints: [
          { method: 'GET', path: '/hello', handler: (_req, res) => void res.type('text/plain').send('hello') },
          { method: 'POST', path: '/teapot', handler: (_req, res) => void res.status(418).type('text/plain').send('short and stout') },
        ],
      });
      const hello = await request(`${url}/hello`);
      expect(hello.status).toBe(200);
      expect(hello.contentType).toMatch(/^text\/plain/);
      expect(hello.body).toBe('hello');

      const teapot = await request(`${url}/teapot`, { method: 'POST' });
      expect(teapot.status).toBe(418);
      expect(teapot.body).toBe('short and stout');

      expect((await request(`${url}/v2/hello`)).status).toBe(404);
    });
  });

  describe('bodyLimit', () => {
    it('accepts a body up to a limit given as a string and answers 413 PAYLOAD_TOO_LARGE above it', async () => {
      const { database } = testbed;
      const { url } = await testbed.start({ bodyLimit: '2kb' });
      const small = await request(`${url}/api/notes`, { method: 'POST', body: { title: 'x'.repeat(1500) } });
      expect(small.status).toBe(201);
      const large = await request(`${url}/api/notes`, { method: 'POST', body: { title: 'x'.repeat(3000) } });
      expect(large.status).toBe(413);
      expect(large.body).toEqual({ error: { code: 'PAYLOAD_TOO_LARGE', message: expect.any(String) } });
      expect(await database.raw('SELECT id FROM t_notes')).toHaveLength(1);
    });

    it('accepts a limit given as a number of bytes', async () => {
      const { url } = await testbed.start({ bodyLimit: 100 });
      expect((await request(`${url}/api/notes`, { method: 'POST', body: { title: 'x'.repeat(50) } })).status).toBe(201);
      const large = await request(`${url}/api/notes`, { method: 'POST', body: { title: 'x'.repeat(200) } });
      expect(large.status).toBe(413);
      expect(large.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    });

    it('defaults to 1 MiB', async () => {
      const { url } = await testbed.start();
      const large = await request(`${url}/api/notes`, { method: 'POST', body: { title: 'x'.repeat(1024 * 1024) } });
      expect(large.status).toBe(413);
      expect(large.body.error.code).toBe('PAYLOAD_TOO_LARGE');
    });
  });

  describe('statementCache', () => {
    it('throws a SetupError at construction for a value other than true or false', () => {
      expect(() => createServer({ requestLogging: false, statementCache: 'off' as never })).toThrow('statementCache must be true or false');
    });
  });

  describe('route collisions', () => {
    it('throws at construction naming both actions when two resources mount the same route', async () => {
      const other = defineService({ name: 'other', db: (await testbed.openDatabase()).db });
      const { notes } = testbed.database.tables;
      other.resource({ name: 'notes', table: notes, id: notes.id }).use(crud({ access: 'public', fields: { id: { read: true } } }));
      expect(() => createServer({ requestLogging: false })).toThrow(/shop\.notes\.list.*other\.notes\.list/);
      expect(() => createServer({ requestLogging: false, services: [other] })).not.toThrow();
    });
  });

  describe('service actions', () => {
    it('answers POST /api/shop/ping with 200 and the handler\'s value', async () => {
      const { url } = await testbed.start();
      const answer = await request(`${url}/api/shop/ping`, { method: 'POST', body: { echo: 'hi' } });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ echo: 'hi', user: null });
    });

    it('answers 400 VALIDATION_ERROR for input outside the action\'s schema', async () => {
      const { url } = await testbed.start();
      for (const body of [{ echo: 5 }, { unknown: true }]) {
        const answer = await request(`${url}/api/shop/ping`, { method: 'POST', body });
        expect(answer.status).toBe(400);
        expect(answer.body.error.code).toBe('VALIDATION_ERROR');
      }
    });

    it('runs in-process through the function service.action returns', async () => {
      const { service } = testbed;
      await expect(service.ping({ input: { echo: 'local' }, ctx: { user: ALICE } })).resolves.toEqual({ echo: 'local', user: 'alice' });
      await expect(service.ping({ input: { echo: 5 } as any })).rejects.toMatchObject({ code: 'VALIDATION_ERROR', status: 400 });
    });
  });

  describe('mounting', () => {
    it('still answers when mounted inside another Express app', async () => {
      const outer = express();
      outer.use('/mount', createServer({ requestLogging: false }));
      const server = await listenApp(outer);
      try {
        const created = await request(`${server.url}/mount/api/notes`, { method: 'POST', body: { title: 'Mounted' } });
        expect(created.status).toBe(201);
        const listed = await request(`${server.url}/mount/api/notes/query`, { method: 'POST', body: {} });
        expect(listed.status).toBe(200);
        expect(listed.body.items.map((row: { title: string }) => row.title)).toEqual(['Mounted']);
        expect((await request(`${server.url}/mount/_health`)).status).toBe(200);
        const missing = await request(`${server.url}/mount/api/nowhere`);
        expect(missing.status).toBe(404);
        expect(missing.body.error.code).toBe('NOT_FOUND');
      } finally {
        await server.close();
      }
    });
  });
});
