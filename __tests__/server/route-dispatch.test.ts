// Compiled action routes skip Express's router walk (runtime/server/route-dispatch.ts). What users rely on:
// the answers, the precedence of their own endpoints and outer middleware, and the router for anything unusual.
import express, { type Express } from 'express';
import type { AddressInfo } from 'node:net';
import { createServer, type ServerOptions } from 'tessera-api';
import { request, type Response } from '../helpers/request';
import { useServerTestbed } from '../helpers/server-testbed';

interface Counted {
  url: string;
  /** How many requests entered Express's router of the Tessera app. */
  routerWalks(): number;
  close(): Promise<void>;
}

/** Serves `app`, counting the requests that reach its router (a wrapper around the real router, which still answers). */
async function serve(app: Express, outer?: Express): Promise<Counted> {
  const router = app.router as unknown as { handle: (...args: unknown[]) => unknown };
  const handle = router.handle.bind(router);
  let walks = 0;
  router.handle = (...args: unknown[]) => {
    walks++;
    return handle(...args);
  };
  const server = (outer ?? app).listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    routerWalks: () => walks,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Status, content type and body: what the parity matrix compares. */
function answer(response: Response) {
  return { status: response.status, contentType: response.contentType, body: response.body };
}

/** The answers with the row's id written as `<id>` (both servers share one table, so their ids differ). */
function withoutId(answers: unknown, id: string): unknown {
  return JSON.parse(JSON.stringify(answers).replaceAll(id, '<id>'));
}

describe('compiled route dispatch', () => {
  useServerTestbed();
  const running: Counted[] = [];
  afterEach(async () => {
    for (const server of running.splice(0)) await server.close();
  });

  async function start(options: ServerOptions): Promise<Counted> {
    const server = await serve(createServer({ requestLogging: false, ...options }));
    running.push(server);
    return server;
  }

  it('answers every crud action without walking the router, exactly as the generic handler does through it', async () => {
    const compiled = await start({});
    const generic = await start({ compiler: false });
    const answers: Record<string, unknown>[] = [];
    for (const server of [compiled, generic]) {
      const created = await request(`${server.url}/api/notes`, { method: 'POST', body: { title: 'Dispatched' } });
      const id = created.body.id;
      answers.push(withoutId({
        created: answer(created),
        got: answer(await request(`${server.url}/api/notes/${id}?select=title`)),
        listed: answer(await request(`${server.url}/api/notes/query`, { method: 'POST', body: { where: { title: { eq: 'Dispatched' } } } })),
        updated: answer(await request(`${server.url}/api/notes/${id}`, { method: 'PATCH', body: { title: 'Changed' } })),
        missing: answer(await request(`${server.url}/api/notes/no-such-id`)),
        malformed: answer(await request(`${server.url}/api/notes`, { method: 'POST', body: '{"title":', headers: { 'content-type': 'application/json' } })),
        invalid: answer(await request(`${server.url}/api/notes/query`, { method: 'POST', body: { limit: 'many' } })),
        deleted: answer(await request(`${server.url}/api/notes/${id}`, { method: 'DELETE' })),
      }, id) as Record<string, unknown>);
    }
    expect(answers[0]).toEqual(answers[1]);
    expect((answers[0].missing as { status: number }).status).toBe(404);
    expect((answers[0].malformed as { status: number }).status).toBe(400);
    expect(compiled.routerWalks()).toBe(0);
    expect(generic.routerWalks()).toBe(8);
  });

  it('leaves unusual paths to the router, which answers them as before: other case, trailing slash, percent-encoding, HEAD; and a conditional get answered 304', async () => {
    const compiled = await start({});
    const generic = await start({ compiler: false });
    const results: unknown[][] = [];
    for (const server of [compiled, generic]) {
      const id = (await request(`${server.url}/api/notes`, { method: 'POST', body: { title: 'Edge' } })).body.id as string;
      const before = server.routerWalks();
      results.push(withoutId([
        answer(await request(`${server.url}/API/Notes/${id}`)),
        answer(await request(`${server.url}/api/notes/${id}/`)),
        answer(await request(`${server.url}/api/notes/${encodeURIComponent(id).replace(/-/g, '%2D')}`)),
        answer(await request(`${server.url}/api/notes/%E0%A4%A`)),
        (await fetch(`${server.url}/api/notes/${id}`, { method: 'HEAD' })).status,
        // A conditional get: `*` matches the row's current ETag (CONTRACT §10), so 304 Not Modified.
        (await fetch(`${server.url}/api/notes/${id}`, { headers: { 'if-none-match': '*' } })).status,
        // No action route has these methods: the JSON 404, not the router's automatic OPTIONS answer.
        answer(await request(`${server.url}/api/notes/${id}`, { method: 'OPTIONS' })),
        answer(await request(`${server.url}/api/notes/${id}`, { method: 'PUT', body: { title: 'Put' } })),
      ], id) as unknown[]);
      expect(server.routerWalks() - before).toBe(server === compiled ? 7 : 8);
    }
    expect(results[0]).toEqual(results[1]);
    expect((results[0][0] as { status: number }).status).toBe(200);
    expect((results[0][2] as { body: { title: string } }).body.title).toBe('Edge');
    expect((results[0][3] as { body: { error: { code: string } } }).body.error.code).toBe('BAD_REQUEST');
    expect(results[0][5]).toBe(304);
    expect(results[0].slice(6)).toEqual([
      { status: 404, contentType: 'application/json; charset=utf-8', body: { error: expect.objectContaining({ code: 'NOT_FOUND' }) } },
      { status: 404, contentType: 'application/json; charset=utf-8', body: { error: expect.objectContaining({ code: 'NOT_FOUND' }) } },
    ]);
  });

  it('lets an endpoint declared on an action path answer first, as the router would', async () => {
    const compiled = await start({
      endpoints: [{ method: 'GET', path: '/api/notes/special', handler: (_req, res) => void res.json({ from: 'endpoint' }) }],
    });
    expect((await request(`${compiled.url}/api/notes/special`)).body).toEqual({ from: 'endpoint' });
    // Any other id is still the action's.
    expect((await request(`${compiled.url}/api/notes/other`)).body.error.code).toBe('NOT_FOUND');
  });

  it('runs the middleware of an outer Express app before dispatching, when the server is mounted in it', async () => {
    const inner = createServer({ requestLogging: false });
    const outer = express();
    outer.use((_req, res, next) => {
      res.setHeader('x-outer', 'ran');
      next();
    });
    outer.use('/v1', inner);
    const server = await serve(inner, outer);
    running.push(server);
    const created = await fetch(`${server.url}/v1/api/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"title":"Outer"}' });
    expect(created.status).toBe(201);
    expect(created.headers.get('x-outer')).toBe('ran');
    const missing = await request(`${server.url}/v1/api/nowhere`);
    expect(missing.body.error.code).toBe('NOT_FOUND');
    expect(server.routerWalks()).toBe(1);
  });
});
