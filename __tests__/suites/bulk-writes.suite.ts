// CONTRACT §10, writes in bulk: createMany, updateMany, deleteMany and upsert, each one transaction, all or nothing,
// with hooks per row, the scope on every row, maxBatch and maxAffected; over HTTP in every handler mode and in-process.
// counters (client keys) has maxBatch 5 and maxAffected 3; items has access rules, a scope per user and hooks.
import { forEachClient, useSuiteFixture, type SuiteRun } from '../helpers/suite-fixture';
import { ALICE, BOB } from '../helpers/test-app';

const COUNTERS = 'SELECT code, n, label FROM t_counters ORDER BY code';
const ITEMS = 'SELECT name, price, owner_id AS "ownerId" FROM t_items ORDER BY name';

export function bulkWritesSuite(run: SuiteRun): void {
  describe('writes in bulk (CONTRACT §10)', () => {
    const fixture = useSuiteFixture(run);
    const items = (): Promise<any[]> => fixture.database.raw(fixture.dialect === 'mysql' ? ITEMS.replace('"ownerId"', 'ownerId') : ITEMS);

    forEachClient(fixture, (client) => {
      describe('createMany', () => {
        it('creates every item in one call and answers the rows in input order (201)', async () => {
          const answer = await client.call('counters', 'createMany', { items: [{ code: 'b', n: 2 }, { code: 'a', n: 1, label: 'one' }] });
          expect(answer).toEqual({ status: 201, body: { items: [{ code: 'b', n: 2, label: null }, { code: 'a', n: 1, label: 'one' }] } });
          expect(await fixture.database.raw(COUNTERS)).toEqual([{ code: 'a', n: 1, label: 'one' }, { code: 'b', n: 2, label: null }]);
        });

        it('refuses an invalid item with a path into the input, writing none of them', async () => {
          const answer = await client.call('counters', 'createMany', { items: [{ code: 'a', n: 1 }, { code: 'b', n: 'two' }] });
          expect(answer.status).toBe(400);
          expect(answer.body.error.code).toBe('VALIDATION_ERROR');
          expect(answer.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(['/items/1/n']);
          expect(await fixture.database.raw(COUNTERS)).toEqual([]);
        });

        it('rolls every row back on a constraint violation (CONFLICT)', async () => {
          await client.call('counters', 'create', { code: 'taken', n: 0 });
          const answer = await client.call('counters', 'createMany', { items: [{ code: 'new', n: 1 }, { code: 'taken', n: 2 }] });
          expect([answer.status, answer.body.error.code]).toEqual([409, 'CONFLICT']);
          expect(await fixture.database.raw(COUNTERS)).toEqual([{ code: 'taken', n: 0, label: null }]);
        });

        it('points a refusal at the item and field (validation stops at the first, docs/errors.md), and writes none', async () => {
          const valid = [{ code: 'a', n: 1 }, { code: 'b', n: 2 }, { code: 'c', n: 3 }];
          for (const [item, path] of [[{ code: 'd', n: 4, colour: 'red' }, '/items/3/colour'], [{ code: 'd' }, '/items/3/n'], [{ code: 'd', n: 'four' }, '/items/3/n']] as const) {
            const answer = await client.call('counters', 'createMany', { items: [...valid, item] });
            expect([answer.status, answer.body.error.code, answer.body.error.details.map((detail: { path: string }) => detail.path)]).toEqual([400, 'VALIDATION_ERROR', [path]]);
          }
          expect(await fixture.database.raw(COUNTERS)).toEqual([]);
        });

        it('takes 1..maxBatch items', async () => {
          const six = Array.from({ length: 6 }, (_, index) => ({ code: `c${index}`, n: index }));
          for (const input of [{ items: six }, { items: [] }, {}]) {
            const answer = await client.call('counters', 'createMany', input);
            expect([answer.status, answer.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
          }
          expect(await fixture.database.raw(COUNTERS)).toEqual([]);
          expect((await client.call('counters', 'createMany', { items: six.slice(0, 5) })).status).toBe(201);
        });

        it('answers rows the database numbered in input order, each with the key it was stored under (one multi-row INSERT)', async () => {
          const names = ['g', 'c', 'e', 'a', 'f', 'b', 'd'];
          const answer = await client.call('items', 'createMany', { items: names.map((name, price) => ({ name, price })) }, { user: ALICE });
          expect(answer.status).toBe(201);
          const answered = answer.body.items.map((row: { id: number; name: string; price: number }) => [row.id, row.name, row.price]);
          expect(answered.map(([, name, price]: unknown[]) => [name, price])).toEqual(names.map((name, price) => [name, price]));
          const ids = answered.map(([id]: number[]) => id);
          expect(ids).toEqual([...ids].sort((a, b) => a - b));
          const stored = (await fixture.database.raw('SELECT id, name, price FROM t_items ORDER BY id')) as { id: number; name: string; price: number }[];
          expect(stored.map((row) => [Number(row.id), row.name, row.price])).toEqual(answered);
        });

        it('runs the hooks per row and checks the scope of every row: one outside rolls all back (FORBIDDEN)', async () => {
          const answer = await client.call('items', 'createMany', { items: [{ name: 'One', price: 1 }, { name: 'Two', price: 2 }] }, { user: ALICE });
          expect(answer.status).toBe(201);
          expect(answer.body.items.map((row: { name: string; ownerId: string }) => [row.name, row.ownerId])).toEqual([
            ['One', 'alice'],
            ['Two', 'alice'],
          ]);
          expect(fixture.service.hookLog.calls.map((call) => call.hook)).toEqual(['beforeCreate', 'beforeCreate', 'afterCreate', 'afterCreate']);
          const outside = await client.call('items', 'createMany', { items: [{ name: 'Three' }, { name: 'Four' }] }, { user: ALICE, forceOwner: 'bob' });
          expect([outside.status, outside.body.error.code]).toEqual([403, 'FORBIDDEN']);
          expect((await items()).map((row: { name: string }) => row.name)).toEqual(['One', 'Two']);
        });
      });

      describe('updateMany', () => {
        it('sets data on every matching row and answers the count', async () => {
          await client.call('counters', 'createMany', { items: [{ code: 'a', n: 1 }, { code: 'b', n: 2 }, { code: 'c', n: 3 }] });
          const answer = await client.call('counters', 'updateMany', { where: { n: { gte: 2 } }, data: { label: 'big' } });
          expect(answer).toEqual({ status: 200, body: { count: 2 } });
          expect(await fixture.database.raw(COUNTERS)).toEqual([
            { code: 'a', n: 1, label: null },
            { code: 'b', n: 2, label: 'big' },
            { code: 'c', n: 3, label: 'big' },
          ]);
          expect((await client.call('counters', 'updateMany', { where: { n: { eq: 99 } }, data: { label: 'none' } })).body).toEqual({ count: 0 });
        });

        it('requires a non-empty where and some data', async () => {
          await client.call('counters', 'create', { code: 'a', n: 1 });
          for (const input of [{ where: {}, data: { label: 'x' } }, { data: { label: 'x' } }, { where: { n: { eq: 1 } }, data: {} }, { where: { n: { eq: 1 } }, data: { code: 'z' } }]) {
            const answer = await client.call('counters', 'updateMany', input);
            expect([answer.status, answer.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
          }
          expect(await fixture.database.raw(COUNTERS)).toEqual([{ code: 'a', n: 1, label: null }]);
        });

        it('changes nothing when more rows than maxAffected match, and names the count', async () => {
          await client.call('counters', 'createMany', { items: [1, 2, 3, 4].map((n) => ({ code: `c${n}`, n })) });
          const answer = await client.call('counters', 'updateMany', { where: { n: { gte: 1 } }, data: { label: 'all' } });
          expect([answer.status, answer.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
          expect(answer.body.error.message).toMatch(/\b4 rows\b.*maxAffected \(3\)/);
          expect(answer.body.error.details).toEqual([{ path: '/where', message: answer.body.error.message }]);
          expect(((await fixture.database.raw(COUNTERS)) as any[]).map((row: { label: unknown }) => row.label)).toEqual([null, null, null, null]);
        });

        it('updates only rows in scope, with the hooks per row; a row leaving the scope rolls all back', async () => {
          await client.call('items', 'createMany', { items: [{ name: 'A1', price: 1 }, { name: 'A2', price: 2 }] }, { user: ALICE });
          await client.call('items', 'create', { name: 'B1', price: 1 }, { user: BOB });
          fixture.service.hookLog.calls.length = 0;
          const answer = await client.call('items', 'updateMany', { where: { price: { gte: 1 } }, data: { price: 10 } }, { user: ALICE });
          expect(answer).toEqual({ status: 200, body: { count: 2 } });
          expect(fixture.service.hookLog.calls.map((call) => call.hook)).toEqual(['beforeUpdate', 'beforeUpdate', 'afterUpdate', 'afterUpdate']);
          expect(fixture.service.hookLog.calls[2].args.result).toMatchObject({ name: 'A1', price: 10 });
          const leaving = await client.call('items', 'updateMany', { where: { price: { eq: 10 } }, data: { price: 20 } }, { user: ALICE, forceOwner: 'bob' });
          expect([leaving.status, leaving.body.error.code]).toEqual([403, 'FORBIDDEN']);
          expect(await items()).toEqual([
            { name: 'A1', price: 10, ownerId: 'alice' },
            { name: 'A2', price: 10, ownerId: 'alice' },
            { name: 'B1', price: 1, ownerId: 'bob' },
          ]);
        });
      });

      describe('deleteMany', () => {
        it('deletes every matching row in scope and answers the count; beyond maxAffected deletes nothing', async () => {
          await client.call('counters', 'createMany', { items: [1, 2, 3, 4].map((n) => ({ code: `c${n}`, n })) });
          const tooMany = await client.call('counters', 'deleteMany', { where: { n: { gte: 1 } } });
          expect([tooMany.status, tooMany.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
          expect(await fixture.database.raw('SELECT code FROM t_counters ORDER BY code')).toHaveLength(4);
          expect(await client.call('counters', 'deleteMany', { where: { n: { gte: 3 } } })).toEqual({ status: 200, body: { count: 2 } });
          expect(await fixture.database.raw('SELECT code FROM t_counters ORDER BY code')).toEqual([{ code: 'c1' }, { code: 'c2' }]);
          const empty = await client.call('counters', 'deleteMany', { where: {} });
          expect([empty.status, empty.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
        });

        it("reaches only the caller's rows and runs afterDelete per row", async () => {
          await client.call('items', 'createMany', { items: [{ name: 'A1', price: 1 }, { name: 'A2', price: 1 }] }, { user: ALICE });
          await client.call('items', 'create', { name: 'B1', price: 1 }, { user: BOB });
          fixture.service.hookLog.calls.length = 0;
          expect(await client.call('items', 'deleteMany', { where: { price: { eq: 1 } } }, { user: ALICE })).toEqual({ status: 200, body: { count: 2 } });
          expect(fixture.service.hookLog.calls.map((call) => [call.hook, call.args.result])).toEqual([
            ['afterDelete', { success: true }],
            ['afterDelete', { success: true }],
          ]);
          expect((await items()).map((row: { name: string }) => row.name)).toEqual(['B1']);
        });
      });

      describe('upsert', () => {
        it('creates the row under the id of the path (201), then sets its updatable fields (200)', async () => {
          const created = await client.call('counters', 'upsert', { id: 'k', data: { n: 1, label: 'first' } });
          expect(created).toEqual({ status: client.mode === 'http' ? 201 : 200, body: { code: 'k', n: 1, label: 'first' } });
          const updated = await client.call('counters', 'upsert', { id: 'k', data: { n: 2, label: 'second' } });
          expect(updated).toEqual({ status: 200, body: { code: 'k', n: 2, label: 'second' } });
          expect(await fixture.database.raw(COUNTERS)).toEqual([{ code: 'k', n: 2, label: 'second' }]);
        });

        it('validates the body as create does, and refuses a key in the body that is not the path id', async () => {
          for (const input of [{ id: 'k', data: { label: 'no n' } }, { id: 'k', data: { code: 'other', n: 1 } }, { id: 'k', data: { n: 1, colour: 'red' } }]) {
            const answer = await client.call('counters', 'upsert', input);
            expect([answer.status, answer.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
          }
          expect(await fixture.database.raw(COUNTERS)).toEqual([]);
          expect((await client.call('counters', 'upsert', { id: 'k', data: { code: 'k', n: 1 } })).body).toEqual({ code: 'k', n: 1, label: null });
        });

        it('refuses a row the hooks would put outside the scope, created or updated (FORBIDDEN), writing nothing', async () => {
          const created = await client.call('items', 'upsert', { id: 500, data: { name: 'Given away', price: 1 } }, { user: ALICE, forceOwner: 'bob' });
          expect([created.status, created.body.error.code]).toEqual([403, 'FORBIDDEN']);
          expect(await items()).toEqual([]);
          expect((await client.call('items', 'upsert', { id: 500, data: { name: 'Kept', price: 1 } }, { user: ALICE })).status).toBe(client.mode === 'http' ? 201 : 200);
          const moved = await client.call('items', 'upsert', { id: 500, data: { name: 'Moved', price: 2 } }, { user: ALICE, forceOwner: 'bob' });
          expect([moved.status, moved.body.error.code]).toEqual([403, 'FORBIDDEN']);
          expect(await items()).toEqual([{ name: 'Kept', price: 1, ownerId: 'alice' }]);
        });

        it('answers CONFLICT for a key that exists outside the scope, writing nothing; runs the hook of what it does', async () => {
          const bobs = await client.call('items', 'create', { name: 'Bob item', price: 1 }, { user: BOB });
          fixture.service.hookLog.calls.length = 0;
          const answer = await client.call('items', 'upsert', { id: bobs.body.id, data: { name: 'Taken over', price: 2 } }, { user: ALICE });
          expect([answer.status, answer.body.error.code]).toEqual([409, 'CONFLICT']);
          expect(await items()).toEqual([{ name: 'Bob item', price: 1, ownerId: 'bob' }]);
          const mine = await client.call('items', 'upsert', { id: bobs.body.id + 100, data: { name: 'Mine', price: 3 } }, { user: ALICE });
          expect(mine.body).toMatchObject({ id: bobs.body.id + 100, name: 'Mine', ownerId: 'alice' });
          const again = await client.call('items', 'upsert', { id: bobs.body.id + 100, data: { name: 'Mine again', price: 4 } }, { user: ALICE });
          expect([again.status, again.body.name, again.body.price]).toEqual([200, 'Mine again', 4]);
          expect(fixture.service.hookLog.calls.map((call) => call.hook)).toEqual(['beforeCreate', 'afterCreate', 'beforeUpdate', 'afterUpdate']);
        });
      });
    });
  });
}
