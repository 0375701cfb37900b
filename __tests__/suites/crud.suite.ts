// CONTRACT §2-3 row by row: the eight actions, where/orderBy/select/paging, access, scrub, hooks,
// write-only fields, operations and routes. Each test runs over HTTP and in-process and must answer the same.
import { openDatabase, type DialectName, type TestDatabase } from '../helpers/databases';
import { ADMIN, ALICE, BOB, clearRegistry, defineTestService, httpClient, inProcessClient, listen, type Client, type RunningServer, type TestService } from '../helpers/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function crudSuite(dialect: DialectName): void {
  describe('crud actions', () => {
    let database: TestDatabase;
    let service: TestService;
    let server: RunningServer;

    beforeAll(async () => {
      database = await openDatabase(dialect);
      clearRegistry();
      service = defineTestService(database);
      server = await listen({ services: [service.shop] });
    });
    afterAll(async () => {
      await server.close();
      await database.close();
      clearRegistry();
    });
    beforeEach(async () => {
      await database.reset();
      service.hookLog.calls.length = 0;
    });

    describe.each(['http', 'in-process'] as const)('%s', (mode) => {
      let client: Client;
      beforeAll(() => {
        client = mode === 'http' ? httpClient(server.url) : inProcessClient(service);
      });

      async function createNotes(...titles: (string | [string, string | null])[]) {
        const created = [];
        for (const entry of titles) {
          const [title, content] = Array.isArray(entry) ? entry : [entry, null];
          const answer = await client.call('notes', 'create', { title, content });
          expect(answer.status).toBe(201);
          created.push(answer.body);
        }
        return created;
      }

      async function titlesWhere(where: unknown, extra: Record<string, unknown> = {}) {
        const answer = await client.call('notes', 'list', { where, orderBy: [{ field: 'title' }], limit: 10, ...extra });
        expect(answer.status).toBe(200);
        return answer.body.items.map((row: { title: string }) => row.title);
      }

      describe('create', () => {
        it('answers 201 with the created row: readable fields only, app-generated UUID key', async () => {
          const answer = await client.call('notes', 'create', { title: 'First', content: 'Body' });
          expect(answer.status).toBe(201);
          expect(Object.keys(answer.body)).toEqual(['id', 'title', 'content']);
          expect(answer.body).toMatchObject({ title: 'First', content: 'Body' });
          expect(answer.body.id).toMatch(UUID);
          const stored = await database.raw(`SELECT title, content FROM t_notes`);
          expect(stored).toEqual([{ title: 'First', content: 'Body' }]);
        });

        it('accepts an optional column left out or null', async () => {
          const answer = await client.call('notes', 'create', { title: 'No content' });
          expect(answer.body.content).toBeNull();
          expect((await client.call('notes', 'create', { title: 'Null content', content: null })).status).toBe(201);
        });

        it('refuses a missing required column with VALIDATION_ERROR naming it', async () => {
          const answer = await client.call('notes', 'create', { content: 'no title' });
          expect(answer.status).toBe(400);
          expect(answer.body.error.code).toBe('VALIDATION_ERROR');
          expect(answer.body.error.details).toEqual([{ path: '/title', message: 'title is required' }]);
          expect(await database.raw('SELECT id FROM t_notes')).toEqual([]);
        });

        it('refuses a hidden column as not writable, never dropping it silently', async () => {
          const answer = await client.call('notes', 'create', { title: 'x', internal: 'sneaky' });
          expect(answer.status).toBe(400);
          expect(answer.body.error.details).toEqual([{ path: '/internal', message: 'field `internal` is not writable' }]);
          expect(await database.raw('SELECT id FROM t_notes')).toEqual([]);
        });

        it('refuses a readable but not creatable column (the primary key here)', async () => {
          const answer = await client.call('notes', 'create', { title: 'x', id: 'chosen' });
          expect(answer.status).toBe(400);
          expect(answer.body.error.details[0].path).toBe('/id');
        });

        it('returns dates as ISO-8601 strings and booleans and numbers as JSON', async () => {
          const before = Date.now();
          const answer = await client.call('items', 'create', { name: 'Lamp', price: 30, rating: 4.5, active: false }, { user: ALICE });
          expect(answer.status).toBe(201);
          expect(answer.body).toMatchObject({ name: 'Lamp', price: 30, rating: 4.5, active: false, ownerId: 'alice', categoryId: null });
          expect(answer.body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
          expect(Date.parse(answer.body.createdAt)).toBeGreaterThanOrEqual(before - 1000);
        });
      });

      describe('get', () => {
        it('answers the row by id, and NOT_FOUND for an unknown id', async () => {
          const [note] = await createNotes(['Read me', 'text']);
          const answer = await client.call('notes', 'get', { id: note.id });
          expect(answer).toEqual({ status: 200, body: note });
          const missing = await client.call('notes', 'get', { id: '00000000-0000-0000-0000-000000000000' });
          expect(missing.status).toBe(404);
          expect(missing.body.error.code).toBe('NOT_FOUND');
        });

        it('narrows the row with select', async () => {
          const [note] = await createNotes(['Read me', 'text']);
          const answer = await client.call('notes', 'get', { id: note.id, select: ['title'] });
          expect(answer.body).toEqual({ title: 'Read me' });
        });

        it('never returns a hidden column, even when it holds a value', async () => {
          const [note] = await createNotes('Has internal');
          await database.raw(`UPDATE t_notes SET internal = 'secret-value'`);
          const answer = await client.call('notes', 'get', { id: note.id });
          expect(answer.body).not.toHaveProperty('internal');
          expect(JSON.stringify(answer.body)).not.toContain('secret-value');
        });

        it('takes an integer id for an integer key', async () => {
          const created = await client.call('items', 'create', { name: 'Desk' }, { user: ALICE });
          const answer = await client.call('items', 'get', { id: created.body.id }, { user: ALICE });
          expect(answer.body.name).toBe('Desk');
        });
      });

      describe('list', () => {
        it('answers { items } in primary-key order, defaultLimit rows when no limit is given', async () => {
          await createNotes('c', 'a', 'b', 'd');
          const answer = await client.call('notes', 'list', {});
          expect(answer.status).toBe(200);
          expect(Object.keys(answer.body)).toEqual(['items']);
          expect(answer.body.items).toHaveLength(3); // defaultLimit of the notes resource
          const ids = answer.body.items.map((row: { id: string }) => row.id);
          expect(ids).toEqual([...ids].sort());
        });

        it('pages with limit and offset, and includeTotal counts every matching row', async () => {
          await createNotes('a', 'b', 'c', 'd', 'e');
          const page = await client.call('notes', 'list', { orderBy: [{ field: 'title' }], limit: 2, offset: 2, includeTotal: true });
          expect(page.body.items.map((row: { title: string }) => row.title)).toEqual(['c', 'd']);
          expect(page.body.total).toBe(5);
          const filtered = await client.call('notes', 'list', { where: { title: { in: ['a', 'e'] } }, limit: 1, includeTotal: true });
          expect(filtered.body.total).toBe(2);
          expect(filtered.body.items).toHaveLength(1);
        });

        it('accepts limit up to maxLimit and refuses above it', async () => {
          expect((await client.call('notes', 'list', { limit: 10 })).status).toBe(200);
          const answer = await client.call('notes', 'list', { limit: 11 });
          expect(answer.status).toBe(400);
          expect(answer.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: '/limit', message: 'limit must be <= 10' }] });
        });

        it('narrows rows with select and refuses unreadable fields there', async () => {
          await createNotes(['a', 'x']);
          const answer = await client.call('notes', 'list', { select: ['title'] });
          expect(answer.body.items).toEqual([{ title: 'a' }]);
          const refused = await client.call('notes', 'list', { select: ['internal'] });
          expect(refused.status).toBe(400);
          expect(refused.body.error.details).toEqual([{ path: '/select/0', message: 'field `internal` is not readable' }]);
        });

        it('orders by sortable fields in both directions, ties broken by primary key', async () => {
          await createNotes('b', 'a', 'c');
          expect(await titlesWhere(undefined, { orderBy: [{ field: 'title', direction: 'desc' }] })).toEqual(['c', 'b', 'a']);
          expect(await titlesWhere(undefined, { orderBy: [{ field: 'title', direction: 'asc' }] })).toEqual(['a', 'b', 'c']);
          const refused = await client.call('notes', 'list', { orderBy: [{ field: 'content' }] });
          expect(refused.status).toBe(400);
          expect(refused.body.error.details).toEqual([{ path: '/orderBy/0/field', message: 'field `content` cannot be sorted' }]);
        });
      });

      describe('where', () => {
        beforeEach(async () => {
          await createNotes(['apple', 'red fruit'], ['banana', null], ['cherry', 'red'], ['date', 'brown']);
        });

        it.each([
          [{ title: { eq: 'banana' } }, ['banana']],
          [{ title: { ne: 'banana' } }, ['apple', 'cherry', 'date']],
          [{ title: { in: ['apple', 'date', 'zzz'] } }, ['apple', 'date']],
          [{ title: { notIn: ['apple', 'date'] } }, ['banana', 'cherry']],
          [{ title: { gt: 'banana' } }, ['cherry', 'date']],
          [{ title: { gte: 'banana' } }, ['banana', 'cherry', 'date']],
          [{ title: { lt: 'banana' } }, ['apple']],
          [{ title: { lte: 'banana' } }, ['apple', 'banana']],
          [{ title: { between: ['banana', 'cherry'] } }, ['banana', 'cherry']],
          [{ title: { contains: 'an' } }, ['banana']],
          [{ title: { startsWith: 'ch' } }, ['cherry']],
          [{ title: { endsWith: 'e' } }, ['apple', 'date']],
          [{ content: { isNull: true } }, ['banana']],
          [{ content: { isNotNull: true } }, ['apple', 'cherry', 'date']],
        ])('filters with %j', async (where, expected) => {
          expect(await titlesWhere(where)).toEqual(expected);
        });

        it('ANDs several operators on one field and several fields', async () => {
          expect(await titlesWhere({ title: { gt: 'apple', lt: 'date' }, content: { isNotNull: true } })).toEqual(['cherry']);
        });

        it('combines conditions with AND, OR and NOT', async () => {
          expect(await titlesWhere({ OR: [{ title: { eq: 'apple' } }, { title: { eq: 'date' } }] })).toEqual(['apple', 'date']);
          expect(await titlesWhere({ AND: [{ content: { contains: 'red' } }, { NOT: { title: { eq: 'apple' } } }] })).toEqual(['cherry']);
          expect(await titlesWhere({ NOT: { OR: [{ title: { eq: 'apple' } }, { content: { isNull: true } }] } })).toEqual(['cherry', 'date']);
        });

        it('refuses empty AND / OR lists and empty nested conditions, which have no clear meaning', async () => {
          for (const where of [{ OR: [] }, { AND: [] }, { NOT: {} }, { OR: [{}] }]) {
            const answer = await client.call('notes', 'list', { where });
            expect([where, answer.status, answer.body.error.code]).toEqual([where, 400, 'VALIDATION_ERROR']);
          }
          expect(await titlesWhere({})).toEqual(['apple', 'banana', 'cherry', 'date']);
        });

        it('refuses a field without filter operators and an operator the policy does not list', async () => {
          const hidden = await client.call('notes', 'list', { where: { internal: { eq: 'x' } } });
          expect(hidden.body.error.details).toEqual([{ path: '/where/internal', message: 'field `internal` cannot be filtered' }]);
          const operator = await client.call('notes', 'list', { where: { content: { eq: 'red' } } });
          expect(operator.body.error.details).toEqual([{ path: '/where/content/eq', message: 'operator `eq` is not allowed on field `content`' }]);
        });

        it('applies where to count and exists', async () => {
          expect((await client.call('notes', 'count', { where: { content: { contains: 'red' } } })).body).toEqual({ count: 2 });
          expect((await client.call('notes', 'count', {})).body).toEqual({ count: 4 });
          expect((await client.call('notes', 'exists', { where: { title: { eq: 'cherry' } } })).body).toEqual({ exists: true });
          expect((await client.call('notes', 'exists', { where: { title: { eq: 'kiwi' } } })).body).toEqual({ exists: false });
        });

        it('findOne answers the first matching row, or null', async () => {
          const first = await client.call('notes', 'findOne', { where: { content: { contains: 'red' } }, orderBy: [{ field: 'title', direction: 'desc' }] });
          expect(first.status).toBe(200);
          expect(first.body.title).toBe('cherry');
          const none = await client.call('notes', 'findOne', { where: { title: { eq: 'kiwi' } } });
          expect(none).toEqual({ status: 200, body: null });
        });

        it('filters dates given as ISO strings', async () => {
          const created = await client.call('items', 'create', { name: 'Clock' }, { user: ALICE });
          const at = Date.parse(created.body.createdAt);
          const around = [new Date(at - 60_000).toISOString(), new Date(at + 60_000).toISOString()];
          const hit = await client.call('items', 'count', { where: { createdAt: { between: around } } }, { user: ALICE });
          expect(hit.body.count).toBe(1);
          const miss = await client.call('items', 'count', { where: { createdAt: { gt: around[1] } } }, { user: ALICE });
          expect(miss.body.count).toBe(0);
        });
      });

      describe('update', () => {
        it('answers the updated row and changes only the given fields', async () => {
          const [note] = await createNotes(['Old', 'keep']);
          const answer = await client.call('notes', 'update', { id: note.id, data: { title: 'New' } });
          expect(answer).toEqual({ status: 200, body: { id: note.id, title: 'New', content: 'keep' } });
        });

        it('answers NOT_FOUND for an unknown id and refuses empty data', async () => {
          const missing = await client.call('notes', 'update', { id: '00000000-0000-0000-0000-000000000000', data: { title: 'x' } });
          expect(missing.status).toBe(404);
          const [note] = await createNotes('Stay');
          const empty = await client.call('notes', 'update', { id: note.id, data: {} });
          expect(empty.status).toBe(400);
          expect(empty.body.error.code).toBe('VALIDATION_ERROR');
        });

        it('refuses the primary key and hidden columns in data', async () => {
          const [note] = await createNotes('Stay');
          const key = await client.call('notes', 'update', { id: note.id, data: { id: 'other' } });
          expect(key.body.error.details).toEqual([{ path: '/data/id', message: 'field `id` is not updatable' }]);
          const hidden = await client.call('notes', 'update', { id: note.id, data: { internal: 'x' } });
          expect(hidden.body.error.details).toEqual([{ path: '/data/internal', message: 'field `internal` is not updatable' }]);
          expect((await client.call('notes', 'get', { id: note.id })).body.title).toBe('Stay');
        });
      });

      describe('delete', () => {
        it('answers { success: true }, after which the row is gone', async () => {
          const [note] = await createNotes('Bye');
          expect(await client.call('notes', 'delete', { id: note.id })).toEqual({ status: 200, body: { success: true } });
          expect((await client.call('notes', 'get', { id: note.id })).status).toBe(404);
          expect((await client.call('notes', 'delete', { id: note.id })).status).toBe(404);
        });
      });

      describe('access', () => {
        it('answers FORBIDDEN when authorize says no, before any database work', async () => {
          const answer = await client.call('items', 'create', { name: 'Anonymous' });
          expect(answer.status).toBe(403);
          expect(answer.body.error.code).toBe('FORBIDDEN');
          expect(await database.raw('SELECT id FROM t_items')).toEqual([]);
          const created = await client.call('items', 'create', { name: 'Mine' }, { user: ALICE });
          const deleting = await client.call('items', 'delete', { id: created.body.id }, { user: ALICE }); // only admins delete
          expect(deleting.status).toBe(403);
        });

        it('rejects every action of an access object without authorize', async () => {
          // Over HTTP the list route of categories moved to /search (checked in 'routes over HTTP').
          const actions = client.mode === 'http' ? (['findOne', 'count', 'exists', 'create'] as const) : (['list', 'findOne', 'count', 'exists', 'create', 'get'] as const);
          for (const action of actions) {
            const input = action === 'create' ? { name: 'x' } : action === 'get' ? { id: 1 } : {};
            const answer = await client.call('categories', action, input, { user: ADMIN });
            expect([action, answer.status, answer.body.error?.code]).toEqual([action, 403, 'FORBIDDEN']);
          }
        });

        it('scopes every query: rows outside the scope behave as missing', async () => {
          const alices = await client.call('items', 'create', { name: 'Alice item' }, { user: ALICE });
          await client.call('items', 'create', { name: 'Bob item' }, { user: BOB });
          const list = await client.call('items', 'list', { includeTotal: true }, { user: BOB });
          expect(list.body.items.map((row: { name: string }) => row.name)).toEqual(['Bob item']);
          expect(list.body.total).toBe(1);
          expect((await client.call('items', 'count', {}, { user: BOB })).body).toEqual({ count: 1 });
          expect((await client.call('items', 'exists', { where: { name: { eq: 'Alice item' } } }, { user: BOB })).body).toEqual({ exists: false });
          expect((await client.call('items', 'findOne', { where: { name: { eq: 'Alice item' } } }, { user: BOB })).body).toBeNull();
          expect((await client.call('items', 'get', { id: alices.body.id }, { user: BOB })).status).toBe(404);
          expect((await client.call('items', 'update', { id: alices.body.id, data: { name: 'Stolen' } }, { user: BOB })).status).toBe(404);
          expect((await client.call('items', 'delete', { id: alices.body.id }, { user: { ...BOB, role: 'admin' }, scopeProbe: true })).status).toBe(200);
        });

        it('answers FORBIDDEN and writes nothing when a created row would fall outside the scope', async () => {
          const answer = await client.call('items', 'create', { name: 'Planted' }, { user: ALICE, forceOwner: 'bob' });
          expect(answer.status).toBe(403);
          expect(await database.raw('SELECT id FROM t_items')).toEqual([]);
        });

        it('answers FORBIDDEN and rolls back an update that would move the row outside the scope', async () => {
          const created = await client.call('items', 'create', { name: 'Kept' }, { user: ALICE });
          const answer = await client.call('items', 'update', { id: created.body.id, data: { name: 'Moved' } }, { user: ALICE, forceOwner: 'bob' });
          expect(answer.status).toBe(403);
          const stored = await client.call('items', 'get', { id: created.body.id }, { user: ALICE });
          expect(stored.body).toMatchObject({ name: 'Kept', ownerId: 'alice' });
        });

        it('lets a caller without scope (admin) reach every row', async () => {
          await client.call('items', 'create', { name: 'A' }, { user: ALICE });
          await client.call('items', 'create', { name: 'B' }, { user: BOB });
          expect((await client.call('items', 'count', {}, { user: ADMIN })).body).toEqual({ count: 2 });
        });
      });

      describe('scrub, write-only fields and hooks', () => {
        it('scrubs a field per caller, while filters compare the stored value', async () => {
          await client.call('items', 'create', { name: 'Mail', email: 'alice@example.com' }, { user: ALICE });
          const member = await client.call('items', 'list', { where: { email: { eq: 'alice@example.com' } } }, { user: ALICE });
          expect(member.body.items[0].email).toBe('hidden');
          const admin = await client.call('items', 'list', {}, { user: ADMIN });
          expect(admin.body.items[0].email).toBe('alice@example.com');
        });

        it('accepts a write-only field on create and never returns it', async () => {
          const created = await client.call('items', 'create', { name: 'Safe', secret: 'pa55' }, { user: ALICE });
          expect(created.body).not.toHaveProperty('secret');
          expect(JSON.stringify((await client.call('items', 'list', {}, { user: ADMIN })).body)).not.toContain('pa55');
          expect(await database.raw(`SELECT secret FROM t_items`)).toEqual([{ secret: 'pa55' }]);
          const selected = await client.call('items', 'list', { select: ['secret'] }, { user: ALICE });
          expect(selected.status).toBe(400);
        });

        it('runs beforeCreate (which fills the owner column) and afterCreate with the result', async () => {
          const created = await client.call('items', 'create', { name: 'Hooked' }, { user: ALICE });
          expect(created.body.ownerId).toBe('alice');
          const hooks = service.hookLog.calls.map((call) => call.hook);
          expect(hooks).toEqual(['beforeCreate', 'afterCreate']);
          expect(service.hookLog.calls[0].args.data).toEqual({ name: 'Hooked' });
          expect(service.hookLog.calls[1].args.result).toEqual(expect.objectContaining({ name: 'Hooked', email: null }));
        });

        it('runs beforeUpdate with the id and data, then afterUpdate, and afterDelete', async () => {
          const created = await client.call('items', 'create', { name: 'Hooked' }, { user: ALICE });
          service.hookLog.calls.length = 0;
          await client.call('items', 'update', { id: created.body.id, data: { price: 5 } }, { user: ALICE });
          await client.call('items', 'delete', { id: created.body.id }, { user: ADMIN });
          expect(service.hookLog.calls.map((call) => call.hook)).toEqual(['beforeUpdate', 'afterUpdate', 'afterDelete']);
          expect(service.hookLog.calls[0].args).toMatchObject({ id: created.body.id, data: { price: 5 } });
          expect(service.hookLog.calls[1].args.result).toMatchObject({ price: 5 });
          expect(service.hookLog.calls[2].args).toEqual({ id: created.body.id, result: { success: true } });
        });
      });

      describe('operations and routes', () => {
        it('removes switched-off operations entirely', async () => {
          expect((service.categories as any).update).toBeUndefined();
          expect((service.categories as any).delete).toBeUndefined();
          expect((await client.call('categories', 'delete', { id: 1 }, { user: ADMIN })).status).toBe(404);
        });
      });

      describe('conflicts', () => {
        it('answers CONFLICT for a unique violation, naming no value', async () => {
          await client.call('items', 'create', { name: 'Unique-value-1' }, { user: ALICE });
          const answer = await client.call('items', 'create', { name: 'Unique-value-1' }, { user: ALICE });
          expect(answer.status).toBe(409);
          expect(answer.body.error.code).toBe('CONFLICT');
          expect(JSON.stringify(answer.body)).not.toContain('Unique-value-1');
        });

        it('answers CONFLICT for a foreign-key violation', async () => {
          const answer = await client.call('items', 'create', { name: 'Orphan', categoryId: 424242 }, { user: ALICE });
          expect(answer.status).toBe(409);
          expect(answer.body.error.code).toBe('CONFLICT');
        });
      });
    });

    describe('routes over HTTP', () => {
      it('moves a route with routes.<action>.path and keeps a route set to false callable in-process', async () => {
        const moved = await fetch(`${server.url}/api/categories/search`, { method: 'POST' });
        expect(moved.status).toBe(403); // mounted (and denied by access)
        expect((await fetch(`${server.url}/api/categories/query`, { method: 'POST' })).status).toBe(404);
        const getRoute = await fetch(`${server.url}/api/categories/1`);
        expect(getRoute.status).toBe(404);
        expect(((await getRoute.json()) as any).error.code).toBe('NOT_FOUND');
        await expect(service.categories.get({ input: { id: 1 } })).rejects.toMatchObject({ code: 'FORBIDDEN' });
      });

      it('answers 404 for the route of a switched-off operation', async () => {
        const answer = await fetch(`${server.url}/api/categories/1`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"name":"x"}' });
        expect(answer.status).toBe(404);
      });

      it('takes select over GET as ?select=a,b and refuses other query parameters', async () => {
        const created = await httpClient(server.url).call('notes', 'create', { title: 'Q', content: 'c' });
        const answer = await fetch(`${server.url}/api/notes/${created.body.id}?select=id,title`);
        expect(await answer.json()).toEqual({ id: created.body.id, title: 'Q' });
        const unknown = await fetch(`${server.url}/api/notes/${created.body.id}?debug=1`);
        expect(unknown.status).toBe(400);
        expect(((await unknown.json()) as any).error.details).toEqual([{ path: '/debug', message: 'unknown input key `debug`' }]);
      });

      it('answers byte-identical bodies over HTTP and in-process', async () => {
        await httpClient(server.url).call('notes', 'create', { title: 'Same', content: null });
        const overHttp = await (await fetch(`${server.url}/api/notes/query`, { method: 'POST' })).text();
        const inProcess = JSON.stringify(await service.notes.list());
        expect(overHttp).toBe(inProcess);
      });
    });
  });
}
