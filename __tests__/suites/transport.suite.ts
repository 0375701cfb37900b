// What only HTTP has (CONTRACT §2 routes, §4 body errors): moved and switched-off routes, query parameters,
// media types, broken and oversized bodies, and answers byte-identical to the in-process ones.
import { expectError, expectInvalid, rejectedWrite, send } from '../helpers/expectations';
import { seedNote, UNKNOWN_UUID, useSuiteFixture, type SuiteRun } from '../helpers/suite-fixture';
import { ALICE, httpClient, inProcessClient } from '../helpers/test-app';

export function transportSuite(run: SuiteRun): void {
  describe('transport', () => {
    const fixture = useSuiteFixture(run);

    describe('routes over HTTP', () => {
      it('moves a route with routes.<action>.path and keeps a route set to false callable in-process', async () => {
        const moved = await fixture.server.fetch('/api/categories/search', { method: 'POST' });
        expect(moved.status).toBe(403); // mounted (and denied by access)
        expect((await fixture.server.fetch('/api/categories/query', { method: 'POST' })).status).toBe(404);
        const getRoute = await fixture.server.fetch('/api/categories/1');
        expect(getRoute.status).toBe(404);
        expect(((await getRoute.json()) as any).error.code).toBe('NOT_FOUND');
        await expect(fixture.service.categories.get({ input: { id: 1 } })).rejects.toMatchObject({ code: 'FORBIDDEN' });
      });

      it('answers 404 for the route of a switched-off operation', async () => {
        const answer = await fixture.server.fetch('/api/categories/1', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"name":"x"}' });
        expect(answer.status).toBe(404);
      });

      it('answers 404 NOT_FOUND to a method no route mounts on a fixed path, before any id check: the fixed path wins over :id', async () => {
        const json = { 'content-type': 'application/json' };
        // notes: uuid keys (`query` is no uuid); counters: text keys, with upsert (PUT /:id), deleteMany and createMany.
        const fixed = ['/api/notes/query', '/api/notes/count', '/api/notes/exists', '/api/notes/find-one', '/api/counters/delete', '/api/counters/bulk', '/api/counters/count'];
        for (const path of fixed) {
          for (const method of ['GET', 'HEAD', 'PATCH', 'PUT', 'DELETE']) {
            const answer = await fixture.server.fetch(path, { method, headers: json, body: method === 'GET' || method === 'HEAD' ? undefined : '{"n":1}' });
            const body = method === 'HEAD' ? null : await answer.json();
            expect([method, path, answer.status, body]).toEqual([method, path, 404, method === 'HEAD' ? null : { error: { code: 'NOT_FOUND', message: `no route for ${method} ${path}` } }]);
          }
        }
        // A counter whose key is literally "count": the :id routes do not reach it over HTTP, /count counts.
        expect((await send(fixture.server, 'POST', '/api/counters', '{"code":"count","n":1}', json)).status).toBe(201);
        expect(await send(fixture.server, 'POST', '/api/counters/count', '{}', json)).toEqual({ status: 200, body: { count: 1 } });
        expect(await fixture.database.raw('SELECT code, n FROM t_counters')).toEqual([{ code: 'count', n: 1 }]);
      });

      it('takes select over GET as ?select=a,b and refuses other query parameters', async () => {
        const created = await httpClient(fixture.server).call('notes', 'create', { title: 'Q', content: 'c' });
        const answer = await fixture.server.fetch(`/api/notes/${created.body.id}?select=id,title`);
        expect(await answer.json()).toEqual({ id: created.body.id, title: 'Q' });
        const unknown = await fixture.server.fetch(`/api/notes/${created.body.id}?debug=1`);
        expect(unknown.status).toBe(400);
        expect(((await unknown.json()) as any).error.details).toEqual([{ path: '/debug', message: 'unknown input key `debug`' }]);
      });

      it('answers byte-identical bodies over HTTP and in-process', async () => {
        await httpClient(fixture.server).call('notes', 'create', { title: 'Same', content: null });
        const overHttp = await (await fixture.server.fetch('/api/notes/query', { method: 'POST' })).text();
        const inProcess = JSON.stringify(await fixture.service.notes.list());
        expect(overHttp).toBe(inProcess);
      });
    });

    describe('over HTTP only (the transport is the point)', () => {
      const json = { 'content-type': 'application/json' };

      it('answers 415 UNSUPPORTED_MEDIA_TYPE for a body that is not application/json, and writes nothing', async () => {
        const answer = await rejectedWrite(fixture.database, () => send(fixture.server, 'POST', '/api/notes', '{"title":"x"}', { 'content-type': 'text/plain' }));
        expectError(answer, 'UNSUPPORTED_MEDIA_TYPE', 415);
        expectError(await send(fixture.server, 'POST', '/api/notes/query', 'limit=5', { 'content-type': 'application/x-www-form-urlencoded' }), 'UNSUPPORTED_MEDIA_TYPE', 415);
      });

      it('answers 400 BAD_REQUEST for malformed JSON, and writes nothing', async () => {
        const answer = await rejectedWrite(fixture.database, () => send(fixture.server, 'POST', '/api/notes', '{"title": ', json));
        expectError(answer, 'BAD_REQUEST', 400);
        expectError(await send(fixture.server, 'POST', '/api/notes/query', "{'limit': 5}", json), 'BAD_REQUEST', 400);
      });

      it('answers VALIDATION_ERROR for a JSON array as a create body, and writes nothing', async () => {
        const answer = await rejectedWrite(fixture.database, () => send(fixture.server, 'POST', '/api/notes', '[{"title":"x"}]', json));
        expectInvalid(answer, '');
      });

      it('answers VALIDATION_ERROR, input must be an object, for a JSON scalar body (valid JSON, not malformed), and writes nothing', async () => {
        for (const body of ['"x"', '5', 'null', 'true']) {
          const answer = await rejectedWrite(fixture.database, () => send(fixture.server, 'POST', '/api/notes', body, json));
          expectInvalid(answer, '', 'input must be an object');
          expectInvalid(await send(fixture.server, 'POST', '/api/notes/query', body, json), '', 'input must be an object');
        }
      });

      it('answers 413 PAYLOAD_TOO_LARGE for a body above bodyLimit, and writes nothing', async () => {
        const small = await fixture.listen({ bodyLimit: 1024 });
        try {
          const within = await send(small, 'POST', '/api/notes', JSON.stringify({ title: 'fits', content: 'x'.repeat(900) }), json);
          expect(within.status).toBe(201);
          const answer = await rejectedWrite(fixture.database, () => send(small, 'POST', '/api/notes', JSON.stringify({ title: 'too big', content: 'x'.repeat(2000) }), json));
          expectError(answer, 'PAYLOAD_TOO_LARGE', 413);
        } finally {
          await small.close();
        }
      });

      it('rejects an id of the wrong type in the path with VALIDATION_ERROR', async () => {
        expectInvalid(await send(fixture.server, 'GET', '/api/items/abc', undefined, { 'x-test-user': JSON.stringify(ALICE) }), '/id');
        expectInvalid(await send(fixture.server, 'GET', '/api/items/1.5', undefined, { 'x-test-user': JSON.stringify(ALICE) }), '/id');
      });

      it('answers 404 NOT_FOUND for an unknown uuid in the path', async () => {
        expectError(await send(fixture.server, 'GET', `/api/notes/${UNKNOWN_UUID}`), 'NOT_FOUND', 404);
      });

      it('rejects an unknown query parameter on get, naming it', async () => {
        const note = await seedNote(fixture, 'kept');
        expectInvalid(await send(fixture.server, 'GET', `/api/notes/${note.id}?limit=5`), '/limit', 'unknown input key `limit`');
        // A second id beside the path's is refused, not silently dropped.
        const other = await seedNote(fixture, 'other');
        expectInvalid(await send(fixture.server, 'GET', `/api/notes/${note.id}?id=${other.id}`), '/id', 'query parameter `id` is not allowed');
      });

      it('answers 401 UNAUTHORIZED when the context factory rejects the credentials, before any action runs', async () => {
        const note = await seedNote(fixture, 'kept');
        const bad = { ...json, 'x-test-user': 'bad' };
        expectError(await send(fixture.server, 'POST', '/api/notes/query', '{}', bad), 'UNAUTHORIZED', 401);
        expectError(await send(fixture.server, 'GET', `/api/notes/${note.id}`, undefined, bad), 'UNAUTHORIZED', 401);
        expectError(await rejectedWrite(fixture.database, () => send(fixture.server, 'POST', '/api/items', '{"name":"x"}', bad)), 'UNAUTHORIZED', 401);
        expectError(await send(fixture.server, 'POST', '/api/shop/ping', '{}', bad), 'UNAUTHORIZED', 401);
      });

      it("answers a custom service action with 200 and the handler's value, and VALIDATION_ERROR for input outside its schema", async () => {
        const answer = await send(fixture.server, 'POST', '/api/shop/ping', '{"echo":"hi"}', { ...json, 'x-test-user': JSON.stringify({ user: ALICE }) });
        expect(answer).toEqual({ status: 200, body: { echo: 'hi', user: 'alice' } });
        expectInvalid(await send(fixture.server, 'POST', '/api/shop/ping', '{"echo":5}', json), '/echo');
        expectInvalid(await send(fixture.server, 'POST', '/api/shop/ping', '{"other":1}', json), '/other');
      });

      it('answers the same VALIDATION_ERROR body over HTTP as in-process', async () => {
        const input = { where: { content: { eq: 'x' } } };
        const overHttp = await httpClient(fixture.server).call('notes', 'list', input);
        const inProcess = await inProcessClient(fixture.service).call('notes', 'list', input);
        expect(overHttp).toEqual(inProcess);
      });
    });
  });
}
