// CONTRACT §10, cursor paging: list with `cursor: true` or a cursor answers `nextCursor` (null on the last page);
// pages walk the order (orderBy, then the primary key) without a row twice or one skipped, NULLs included; a cursor
// of another shape or resource, an altered one, or one beside an offset is a VALIDATION_ERROR; findOne takes none.
import { forEachClient, useSuiteFixture, type SuiteRun } from '../helpers/suite-fixture';
import { ALICE, ADMIN, type Client } from '../helpers/test-app';

/** 11 counters: n repeats (ties broken by code), label NULL on some (a nullable sort column). */
const COUNTERS = [
  ['k01', 3, 'b'], ['k02', 1, null], ['k03', 3, 'a'], ['k04', 2, 'b'], ['k05', 1, 'c'], ['k06', 5, null],
  ['k07', 2, 'a'], ['k08', 4, 'c'], ['k09', 3, null], ['k10', 1, 'a'], ['k11', 4, 'b'],
] as const;

const ORDERS: { title: string; orderBy?: { field: string; direction?: 'asc' | 'desc' }[] }[] = [
  { title: 'the primary key' },
  { title: 'n ascending', orderBy: [{ field: 'n' }] },
  { title: 'n descending', orderBy: [{ field: 'n', direction: 'desc' }] },
  { title: 'a nullable column ascending', orderBy: [{ field: 'label' }] },
  { title: 'a nullable column descending, then n ascending', orderBy: [{ field: 'label', direction: 'desc' }, { field: 'n' }] },
  { title: 'n descending, then the key ascending', orderBy: [{ field: 'n', direction: 'desc' }, { field: 'code' }] },
];

/** The codes of every page, following nextCursor from `cursor: true`; the cursors seen, in order. */
async function walk(client: Client, input: Record<string, unknown>, ctx?: Record<string, unknown>, resource: 'counters' | 'items' = 'counters') {
  const pages: string[][] = [];
  const cursors: (string | null)[] = [];
  let cursor: string | true | null = true;
  while (cursor !== null) {
    const answer = await client.call(resource, 'list', { ...input, cursor }, ctx);
    expect(answer.status).toBe(200);
    pages.push(answer.body.items.map((row: { code?: string; name?: string }) => row.code ?? row.name));
    const next: string | null = answer.body.nextCursor;
    cursors.push(next);
    cursor = next;
    expect(pages.length).toBeLessThan(20);
  }
  return { pages, cursors };
}

export function cursorPagesSuite(run: SuiteRun): void {
  describe('cursor paging (CONTRACT §10)', () => {
    const fixture = useSuiteFixture(run);
    const seed = () => fixture.database.raw(`INSERT INTO t_counters (code, n, label) VALUES ${COUNTERS.map(([code, n, label]) => `('${code}', ${n}, ${label === null ? 'NULL' : `'${label}'`})`).join(', ')}`);

    forEachClient(fixture, (client) => {
      for (const { title, orderBy } of ORDERS) {
        it(`pages by ${title}: every row once, in the order an unpaged list answers`, async () => {
          await seed();
          const whole = await client.call('counters', 'list', { orderBy, limit: 20 });
          const { pages, cursors } = await walk(client, { orderBy, limit: 4 });
          expect(pages.flat()).toEqual(whole.body.items.map((row: { code: string }) => row.code));
          expect(pages.map((page) => page.length)).toEqual([4, 4, 3]);
          expect(cursors.map((cursor) => (cursor === null ? null : /^[A-Za-z0-9_-]+$/.test(cursor)))).toEqual([true, true, null]);
        });
      }

      it('answers nextCursor null when the page holds the last row, and keys in the order items, total, nextCursor', async () => {
        await seed();
        const exact = await client.call('counters', 'list', { limit: 11, cursor: true, includeTotal: true });
        expect(Object.keys(exact.body)).toEqual(['items', 'total', 'nextCursor']);
        expect([exact.body.items.length, exact.body.total, exact.body.nextCursor]).toEqual([11, 11, null]);
        // Without a cursor asked for, no nextCursor.
        expect(Object.keys((await client.call('counters', 'list', { limit: 2 })).body)).toEqual(['items']);
        const empty = await client.call('counters', 'list', { where: { n: { eq: 99 } }, cursor: true });
        expect(empty.body).toEqual({ items: [], nextCursor: null });
      });

      it('pages by columns it does not select, with a filter', async () => {
        await seed();
        const input = { select: ['code'], where: { n: { gte: 2 } }, orderBy: [{ field: 'label' }, { field: 'n', direction: 'desc' }], limit: 3 };
        const whole = await client.call('counters', 'list', { ...input, limit: 10 });
        const { pages } = await walk(client, input);
        expect(pages.flat()).toEqual(whole.body.items.map((row: { code: string }) => row.code));
        const first = await client.call('counters', 'list', { ...input, cursor: true });
        expect(first.body.items[0]).toEqual({ code: expect.any(String) });
      });

      it('pages a scoped resource inside the caller scope, by a nullable column', async () => {
        for (const [name, price, ctx] of [['a', 5, ALICE], ['b', null, ALICE], ['c', 5, ADMIN], ['d', 1, ALICE], ['e', null, ALICE], ['f', 9, ALICE]] as const) {
          expect((await client.call('items', 'create', { name, price }, { user: ctx })).status).toBe(201);
        }
        const input = { orderBy: [{ field: 'price', direction: 'desc' as const }], limit: 2 };
        const whole = await client.call('items', 'list', { ...input, limit: 10 }, { user: ALICE });
        const { pages } = await walk(client, input, { user: ALICE }, 'items');
        expect(pages.flat()).toEqual(whole.body.items.map((row: { name: string }) => row.name));
        expect(pages.flat().sort()).toEqual(['a', 'b', 'd', 'e', 'f']);
      });

      it('refuses with VALIDATION_ERROR a cursor beside an offset, of another order, filter or resource, or altered', async () => {
        await seed();
        const orderBy = [{ field: 'n' }];
        const { nextCursor } = (await client.call('counters', 'list', { orderBy, limit: 2, cursor: true })).body;
        const refused = async (resource: 'counters' | 'notes', input: Record<string, unknown>) => {
          const answer = await client.call(resource, 'list', input);
          expect([answer.status, answer.body.error.code]).toEqual([400, 'VALIDATION_ERROR']);
          expect(answer.body.error.message).not.toMatch(/decipher|auth|tag|crypto|aes/i);
          // One problem, one detail, pointing at the cursor (docs/resources.md, Cursor paging).
          expect(answer.body.error.details).toEqual([{ path: '/cursor', message: answer.body.error.message }]);
          return answer.body.error.message as string;
        };
        expect(await refused('counters', { orderBy, cursor: nextCursor, offset: 2 })).toMatch(/cursor and offset/);
        expect(await refused('counters', { orderBy, cursor: true, offset: 0 })).toMatch(/cursor and offset/);
        expect(await refused('counters', { cursor: nextCursor })).toMatch(/another where or orderBy/);
        expect(await refused('counters', { orderBy: [{ field: 'n', direction: 'desc' }], cursor: nextCursor })).toMatch(/another where or orderBy/);
        expect(await refused('counters', { orderBy, where: { n: { gte: 1 } }, cursor: nextCursor })).toMatch(/another where or orderBy/);
        expect(await refused('notes', { cursor: nextCursor })).toMatch(/not valid for this resource/);
        const middle = Math.floor(nextCursor.length / 2);
        const altered = nextCursor.slice(0, middle) + (nextCursor[middle] === 'A' ? 'B' : 'A') + nextCursor.slice(middle + 1);
        expect(await refused('counters', { orderBy, cursor: altered })).toMatch(/not valid for this resource/);
        expect(await refused('counters', { orderBy, cursor: 'not a cursor!' })).toMatch(/not valid for this resource/);
        for (const cursor of [false, '', 12, null]) {
          expect(await refused('counters', { orderBy, cursor })).toBe('cursor must be true (for the first page) or the nextCursor of the page before');
        }
        // The same cursor with the where's keys in another order is the same list.
        const where = { n: { gte: 1 }, code: { in: ['k01', 'k02', 'k03'] } };
        const next = (await client.call('counters', 'list', { where, orderBy, limit: 2, cursor: true })).body.nextCursor;
        const reordered = await client.call('counters', 'list', { where: { code: { in: ['k01', 'k02', 'k03'] }, n: { gte: 1 } }, orderBy, limit: 2, cursor: next });
        expect([reordered.status, reordered.body.items.map((row: { code: string }) => row.code)]).toEqual([200, ['k03']]);
      });

      it('refuses a cursor on findOne: one row has no next page', async () => {
        const answer = await client.call('counters', 'findOne', { cursor: true });
        expect([answer.status, answer.body.error.code, answer.body.error.message]).toEqual([400, 'VALIDATION_ERROR', 'unknown input key `cursor`']);
      });
    });
  });
}
