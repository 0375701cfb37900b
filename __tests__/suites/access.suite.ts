// CONTRACT §3, who may do what and see what: authorize and scope, scrub, write-only fields, the hooks
// around writes and switched-off operations, over HTTP and in-process alike.
import { forEachClient, useSuiteFixture, type SuiteRun } from '../helpers/suite-fixture';
import { eq } from 'drizzle-orm';
import { crud, defineService } from 'tessera-api';
import { ADMIN, ALICE, BOB } from '../helpers/test-app';

export function accessSuite(run: SuiteRun): void {
  describe('access, scrub and hooks', () => {
    const fixture = useSuiteFixture(run);

    forEachClient(fixture, (client) => {
      describe('access', () => {
        it('answers FORBIDDEN when authorize says no, before any database work', async () => {
          const answer = await client.call('items', 'create', { name: 'Anonymous' });
          expect(answer.status).toBe(403);
          expect(answer.body.error.code).toBe('FORBIDDEN');
          expect(await fixture.database.raw('SELECT id FROM t_items')).toEqual([]);
          const created = await client.call('items', 'create', { name: 'Mine' }, { user: ALICE });
          const deleting = await client.call('items', 'delete', { id: created.body.id }, { user: ALICE }); // only admins delete
          expect(deleting.status).toBe(403);
        });

        it('calls authorize with ctx, the action name, the input and the resource name, then scope with ctx and action', async () => {
          const input = { where: { price: { gt: 1 } } };
          await client.call('items', 'count', input, { user: ALICE });
          // Over HTTP the context also holds the request's id (request ids are on by default).
          const ctx = client.mode === 'http' ? { user: ALICE, requestId: expect.any(String) } : { user: ALICE };
          expect(fixture.service.accessLog.calls).toEqual([
            { rule: 'authorize', args: { ctx, action: 'count', input, resource: 'items' } },
            { rule: 'scope', args: { ctx, action: 'count' } },
          ]);
          fixture.service.accessLog.calls.length = 0;
          await client.call('items', 'count', input); // no user: authorize says no, and scope never runs
          expect(fixture.service.accessLog.calls.map((call) => call.rule)).toEqual(['authorize']);
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
          expect(await fixture.database.raw('SELECT id FROM t_items')).toEqual([]);
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
          expect(await fixture.database.raw(`SELECT secret FROM t_items`)).toEqual([{ secret: 'pa55' }]);
          const selected = await client.call('items', 'list', { select: ['secret'] }, { user: ALICE });
          expect(selected.status).toBe(400);
        });

        it('runs beforeCreate (which fills the owner column) and afterCreate with the result', async () => {
          const created = await client.call('items', 'create', { name: 'Hooked' }, { user: ALICE });
          expect(created.body.ownerId).toBe('alice');
          const hooks = fixture.service.hookLog.calls.map((call) => call.hook);
          expect(hooks).toEqual(['beforeCreate', 'afterCreate']);
          expect(fixture.service.hookLog.calls[0].args.data).toEqual({ name: 'Hooked' });
          expect(fixture.service.hookLog.calls[1].args.result).toEqual(expect.objectContaining({ name: 'Hooked', email: null }));
        });

        it('runs beforeUpdate with the id and data, then afterUpdate, and afterDelete', async () => {
          const created = await client.call('items', 'create', { name: 'Hooked' }, { user: ALICE });
          fixture.service.hookLog.calls.length = 0;
          await client.call('items', 'update', { id: created.body.id, data: { price: 5 } }, { user: ALICE });
          await client.call('items', 'delete', { id: created.body.id }, { user: ADMIN });
          expect(fixture.service.hookLog.calls.map((call) => call.hook)).toEqual(['beforeUpdate', 'afterUpdate', 'afterDelete']);
          expect(fixture.service.hookLog.calls[0].args).toMatchObject({ id: created.body.id, data: { price: 5 } });
          expect(fixture.service.hookLog.calls[1].args.result).toMatchObject({ price: 5 });
          expect(fixture.service.hookLog.calls[2].args).toEqual({ id: created.body.id, result: { success: true } });
        });
      });

      describe('operations and routes', () => {
        it('removes switched-off operations entirely', async () => {
          expect((fixture.service.categories as any).update).toBeUndefined();
          expect((fixture.service.categories as any).delete).toBeUndefined();
          expect((await client.call('categories', 'delete', { id: 1 }, { user: ADMIN })).status).toBe(404);
        });
      });
    });

    // In-process only, so it runs once: in the generic handler's run (no HTTP handler is involved).
    if (fixture.mode === 'generic') {
      describe('scope as a Drizzle SQL condition', () => {
        it('ANDs the SQL into every query, as it does a where', async () => {
          const { items } = fixture.database.tables;
          const service = defineService({ name: 'sqlscope', db: fixture.database.db });
          const scoped = service.resource({ name: 'items', table: items, id: items.id }).use(
            crud({ access: { authorize: () => true, scope: () => eq(items.ownerId, 'alice') }, fields: { name: { read: true, update: true } } }),
          );
          await fixture.service.items.create({ input: { name: 'A' }, ctx: { user: ALICE } });
          const bobs = await fixture.service.items.create({ input: { name: 'B' }, ctx: { user: BOB } });
          expect(await scoped.list()).toEqual({ items: [{ name: 'A' }] });
          expect(await scoped.count()).toEqual({ count: 1 });
          await expect(scoped.update({ input: { id: bobs.id as number, data: { name: 'taken' } } })).rejects.toMatchObject({ code: 'NOT_FOUND' });
        });
      });
    }
  });
}
