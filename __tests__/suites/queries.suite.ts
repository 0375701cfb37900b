// CONTRACT §2-3 for many rows: list paging, orderBy and select, every where operator and combinator, and
// where applied to count, exists and findOne, over HTTP and in-process alike.
import { createNotes, forEachClient, useSuiteFixture, type SuiteRun } from '../helpers/suite-fixture';
import { ALICE } from '../helpers/test-app';

export function queriesSuite(run: SuiteRun): void {
  describe('queries', () => {
    const fixture = useSuiteFixture(run);

    forEachClient(fixture, (client) => {
      async function titlesWhere(where: unknown, extra: Record<string, unknown> = {}) {
        const answer = await client.call('notes', 'list', { where, orderBy: [{ field: 'title' }], limit: 10, ...extra });
        expect(answer.status).toBe(200);
        return answer.body.items.map((row: { title: string }) => row.title);
      }

      describe('list', () => {
        it('answers { items } in primary-key order, defaultLimit rows when no limit is given', async () => {
          await createNotes(client, 'c', 'a', 'b', 'd');
          const answer = await client.call('notes', 'list', {});
          expect(answer.status).toBe(200);
          expect(Object.keys(answer.body)).toEqual(['items']);
          expect(answer.body.items).toHaveLength(3); // defaultLimit of the notes resource
          const ids = answer.body.items.map((row: { id: string }) => row.id);
          expect(ids).toEqual([...ids].sort());
        });

        it('pages with limit and offset, and includeTotal counts every matching row', async () => {
          await createNotes(client, 'a', 'b', 'c', 'd', 'e');
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
          await createNotes(client, ['a', 'x']);
          const answer = await client.call('notes', 'list', { select: ['title'] });
          expect(answer.body.items).toEqual([{ title: 'a' }]);
          const refused = await client.call('notes', 'list', { select: ['internal'] });
          expect(refused.status).toBe(400);
          expect(refused.body.error.details).toEqual([{ path: '/select/0', message: 'field `internal` is not readable' }]);
        });

        it('orders by sortable fields in both directions, ties broken by primary key', async () => {
          await createNotes(client, 'b', 'a', 'c');
          expect(await titlesWhere(undefined, { orderBy: [{ field: 'title', direction: 'desc' }] })).toEqual(['c', 'b', 'a']);
          expect(await titlesWhere(undefined, { orderBy: [{ field: 'title', direction: 'asc' }] })).toEqual(['a', 'b', 'c']);
          const refused = await client.call('notes', 'list', { orderBy: [{ field: 'content' }] });
          expect(refused.status).toBe(400);
          expect(refused.body.error.details).toEqual([{ path: '/orderBy/0/field', message: 'field `content` cannot be sorted' }]);
        });

        // Issue 18: the key runs the way the last orderBy entry does, so an index on the sorted column serves the order.
        it('breaks ties by primary key in the direction of the last orderBy entry (a query built per call)', async () => {
          const notes = await createNotes(client, 'b', 'a', 'b', 'a', 'c');
          const idsOf = (title: string, direction: 'asc' | 'desc') => {
            const ids = notes.filter((note) => note.title === title).map((note) => note.id as string).sort();
            return direction === 'asc' ? ids : ids.reverse();
          };
          for (const direction of ['asc', 'desc'] as const) {
            const answer = await client.call('notes', 'list', { orderBy: [{ field: 'title', direction }], limit: 10 });
            const expected = (direction === 'asc' ? ['a', 'b', 'c'] : ['c', 'b', 'a']).flatMap((title) => idsOf(title, direction));
            expect([direction, answer.body.items.map((row: { id: string }) => row.id)]).toEqual([direction, expected]);
          }
          const first = await client.call('notes', 'findOne', { where: { title: { eq: 'b' } }, orderBy: [{ field: 'title', direction: 'desc' }] });
          expect(first.body.id).toBe(idsOf('b', 'desc')[0]);
        });

        it('breaks ties by primary key in the direction of the last orderBy entry (a cached statement)', async () => {
          for (const [code, n, label] of [['k1', 2, 'x'], ['k2', 1, 'x'], ['k3', 2, 'x'], ['k4', 1, 'y'], ['k5', 1, 'x']] as const) {
            expect((await client.call('counters', 'create', { code, n, label })).status).toBe(201);
          }
          const codes = async (orderBy: unknown) => (await client.call('counters', 'list', { orderBy })).body.items.map((row: { code: string }) => row.code);
          expect(await codes([{ field: 'n', direction: 'desc' }])).toEqual(['k3', 'k1', 'k5', 'k4', 'k2']);
          expect(await codes([{ field: 'n', direction: 'asc' }])).toEqual(['k2', 'k4', 'k5', 'k1', 'k3']);
          expect(await codes([{ field: 'n' }])).toEqual(['k2', 'k4', 'k5', 'k1', 'k3']);
          // Only the last entry sets the key's direction.
          expect(await codes([{ field: 'n', direction: 'desc' }, { field: 'label', direction: 'asc' }])).toEqual(['k1', 'k3', 'k2', 'k5', 'k4']);
          expect(await codes([{ field: 'n', direction: 'asc' }, { field: 'label', direction: 'desc' }])).toEqual(['k4', 'k5', 'k2', 'k3', 'k1']);
          // Ordering by the key itself adds no tiebreaker.
          expect(await codes([{ field: 'code', direction: 'desc' }])).toEqual(['k5', 'k4', 'k3', 'k2', 'k1']);
          expect((await client.call('counters', 'findOne', { where: { n: { eq: 1 } }, orderBy: [{ field: 'n', direction: 'desc' }] })).body.code).toBe('k5');
        });
      });

      describe('where', () => {
        beforeEach(async () => {
          await createNotes(client, ['apple', 'red fruit'], ['banana', null], ['cherry', 'red'], ['date', 'brown']);
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
    });
  });
}
