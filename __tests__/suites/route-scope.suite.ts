// CONTRACT §2 `routes.<action>.scope`: a route's own scope is ANDed with the access scope for calls made
// through that HTTP route, in every handler mode; it may name hidden columns, cannot widen the access scope,
// and in-process calls of the same actions never get it. A service of its own over the test tables.
import { ne } from 'drizzle-orm';
import { crud, defineService } from 'tessera-api';
import { useSuiteFixture, type SuiteRun } from '../helpers/suite-fixture';
import { ADMIN, ALICE, BOB, listen, type TestServer, type TestUser } from '../helpers/test-app';

interface Answer {
  status: number;
  body: any;
}

function defineRoutedService(db: unknown, tables: { items: any; notes: any }, scopeCalls: unknown[]) {
  const { items, notes } = tables;
  const routed = defineService({ name: 'routed', db });
  const itemsResource = routed.resource({ name: 'items', table: items, id: items.id }).use(
    crud({
      access: {
        authorize: ({ ctx }) => ctx.user !== undefined,
        scope: ({ ctx }) => (ctx.user.role === 'admin' ? undefined : { ownerId: { eq: ctx.user.id } }),
      },
      fields: {
        id: { read: true, filter: ['eq'], sort: true },
        name: { read: true, create: true, update: true, filter: ['eq'] },
        active: { read: true, create: true, update: true, filter: ['eq'] },
        ownerId: { read: true },
      },
      hooks: { beforeCreate: ({ data, ctx }) => ({ ...data, ownerId: ctx.user.id }) },
      routes: {
        // `secret` is not in `fields`: hidden from callers, but a scope may name it.
        list: {
          scope: ({ ctx, action }) => {
            scopeCalls.push({ ctx, action });
            return { secret: { isNull: true } };
          },
        },
        get: { path: '/:id/active', scope: () => ({ active: { eq: true } }) },
        findOne: { scope: () => ne(items.name, 'a-open') },
        create: { scope: () => ({ active: { eq: true } }) },
        update: { scope: () => ({ active: { eq: true } }) },
        delete: { scope: () => ({ name: { startsWith: 'a-' } }) },
        // Asks for bob's rows: ANDed with the access scope, alice still reaches only her own.
        count: { scope: () => ({ ownerId: { eq: 'bob' } }) },
        exists: { scope: () => undefined },
      },
    }),
  );
  const notesResource = routed.resource({ name: 'notes', table: notes, id: notes.id }).use(
    crud({
      access: 'public',
      fields: { id: { read: true }, title: { read: true, create: true, filter: ['eq'] } },
      routes: {
        list: { path: '/visible', scope: () => ({ internal: { isNull: true } }) },
        get: { scope: () => ({ internal: { isNull: true } }) },
      },
    }),
  );
  return { routed, items: itemsResource, notes: notesResource };
}

export function routeScopeSuite(run: SuiteRun): void {
  describe('routes.<action>.scope', () => {
    const fixture = useSuiteFixture(run);
    const scopeCalls: unknown[] = [];
    let service: ReturnType<typeof defineRoutedService>;
    let server: TestServer;
    /** Item ids by name, seeded before each test. */
    let ids: Record<string, number>;

    beforeAll(async () => {
      service = defineRoutedService(fixture.database.db, fixture.database.tables, scopeCalls);
      // In bundle mode this builds the routed service's own bundle (and removes it on close).
      server = await listen({ services: [service.routed] }, { mode: run.mode, recording: run.recording });
    });
    afterAll(async () => {
      await server?.close();
    });
    beforeEach(async () => {
      scopeCalls.length = 0;
      ids = {};
      // Through the shop's items, which may write `secret` and set the owner (ctx.forceOwner).
      const seed = async (name: string, owner: TestUser, active: boolean, secret: string | null) => {
        const row = await fixture.service.items.create({ input: { name, active, secret }, ctx: { user: owner } });
        ids[name] = row.id as number;
      };
      await seed('a-open', ALICE, true, null);
      await seed('a-secret', ALICE, true, 'x');
      await seed('a-inactive', ALICE, false, null);
      await seed('b-open', BOB, true, null);
    });

    async function call(method: string, path: string, user: TestUser | null, body?: unknown): Promise<Answer> {
      const headers: Record<string, string> = {};
      if (user !== null) headers['x-test-user'] = JSON.stringify({ user });
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await server.fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await response.text();
      return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
    }
    const names = (answer: Answer) => answer.body.items.map((row: { name: string }) => row.name);
    const storedNames = async () => (await fixture.database.raw('SELECT name FROM t_items ORDER BY id')).map((row: any) => row.name);

    it('narrows list through its route with a scope on a hidden column, and calls it with ctx and the action', async () => {
      const mine = await call('POST', '/api/items/query', ALICE, { includeTotal: true });
      expect(mine.status).toBe(200);
      expect(names(mine)).toEqual(['a-open', 'a-inactive']);
      expect(mine.body.total).toBe(2);
      expect(scopeCalls).toEqual([{ ctx: { user: ALICE, requestId: expect.any(String) }, action: 'list' }]);
      expect(names(await call('POST', '/api/items/query', ADMIN, {}))).toEqual(['a-open', 'a-inactive', 'b-open']);
      // The hidden column stays hidden: it is neither returned nor filterable.
      expect(Object.keys(mine.body.items[0])).toEqual(['id', 'name', 'active', 'ownerId']);
      expect((await call('POST', '/api/items/query', ALICE, { where: { secret: { isNull: true } } })).status).toBe(400);
    });

    it('cannot widen the access scope: a route scope naming another owner reaches nothing of theirs', async () => {
      expect((await call('POST', '/api/items/count', ALICE, {})).body).toEqual({ count: 0 });
      expect((await call('POST', '/api/items/count', BOB, {})).body).toEqual({ count: 1 });
      expect((await call('POST', '/api/items/count', ADMIN, {})).body).toEqual({ count: 1 });
    });

    it('answers 404 for get, update and delete of a row outside the route scope, and leaves it as it was', async () => {
      expect((await call('GET', `/api/items/${ids['a-inactive']}/active`, ALICE)).status).toBe(404);
      expect((await call('GET', `/api/items/${ids['a-open']}/active`, ALICE)).body).toMatchObject({ name: 'a-open' });
      expect((await call('GET', `/api/items/${ids['b-open']}/active`, ALICE)).status).toBe(404); // the access scope still applies
      expect((await call('PATCH', `/api/items/${ids['a-inactive']}`, ALICE, { name: 'renamed' })).status).toBe(404);
      expect((await call('DELETE', `/api/items/${ids['b-open']}`, ADMIN)).status).toBe(404);
      expect(await storedNames()).toEqual(['a-open', 'a-secret', 'a-inactive', 'b-open']);
      expect((await call('DELETE', `/api/items/${ids['a-open']}`, ADMIN)).body).toEqual({ success: true });
    });

    it('answers FORBIDDEN and writes nothing when a created or updated row would leave the route scope', async () => {
      const outside = await call('POST', '/api/items', ALICE, { name: 'a-new', active: false });
      expect(outside.status).toBe(403);
      expect(outside.body.error.code).toBe('FORBIDDEN');
      const moved = await call('PATCH', `/api/items/${ids['a-open']}`, ALICE, { active: false });
      expect(moved.status).toBe(403);
      expect(await fixture.database.raw(`SELECT name, active FROM t_items WHERE name IN ('a-new', 'a-open')`)).toEqual([
        { name: 'a-open', active: fixture.dialect === 'postgres' ? true : 1 },
      ]);
      expect((await call('POST', '/api/items', ALICE, { name: 'a-new', active: true })).status).toBe(201);
    });

    it('takes a Drizzle SQL condition as a route scope, and a route scope answering undefined narrows nothing', async () => {
      expect((await call('POST', '/api/items/find-one', ALICE, {})).body).toMatchObject({ name: 'a-secret' });
      expect((await call('POST', '/api/items/exists', ALICE, { where: { name: { eq: 'a-inactive' } } })).body).toEqual({ exists: true });
    });

    it('narrows the routes of a public resource too', async () => {
      await fixture.service.notes.create({ input: { title: 'shown' } });
      const hidden = await fixture.service.notes.create({ input: { title: 'kept back' } });
      await fixture.database.raw(`UPDATE t_notes SET internal = 'x' WHERE title = 'kept back'`);
      const visible = await call('POST', '/api/notes/visible', null, {});
      expect(visible.body.items.map((row: { title: string }) => row.title)).toEqual(['shown']);
      expect((await call('GET', `/api/notes/${hidden.id}`, null)).status).toBe(404);
    });

    // In-process calls never pass through a route: they run once, in the generic handler's run.
    if (run.mode === 'generic') {
      it('leaves in-process calls of the same actions unaffected', async () => {
        const ctx = { user: ALICE };
        const listed = await service.items.list({ ctx });
        expect(listed.items.map((row) => row.name)).toEqual(['a-open', 'a-secret', 'a-inactive']);
        expect(await service.items.count({ ctx })).toEqual({ count: 3 });
        expect(await service.items.get({ input: { id: ids['a-inactive'] }, ctx })).toMatchObject({ name: 'a-inactive' });
        expect(await service.items.findOne({ ctx })).toMatchObject({ name: 'a-open' });
        expect(await service.items.update({ input: { id: ids['a-open'], data: { active: false } }, ctx })).toMatchObject({ active: false });
        expect(await service.items.create({ input: { name: 'a-new', active: false }, ctx })).toMatchObject({ name: 'a-new' });
        expect(scopeCalls).toEqual([]);
      });
    }
  });
}
