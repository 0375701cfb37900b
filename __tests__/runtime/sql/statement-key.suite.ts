// spec §8 rule 1 on one dialect: statements are keyed by query shape, values travel as placeholders (never in the SQL
// text), and a cached statement answers as a query built per call. The cache around them: statement-cache.suite.ts.
import { statementCacheStats, type Where } from 'tessera-api';
import type { DialectName } from '../../helpers/databases';
import { defineShop, ORDERINGS, productRow, WHERE_BATTERY } from './statement-cache-fixture';
import { HIT, idsOf, MISS, rowsOf, trackStats, useStatementSuite } from './statement-cache-helpers';

/** This file's tables, apart from statement-cache's (jest runs the two files in parallel). */
const NAMESPACE = 'statement_key';

export function statementKeySuite(dialect: DialectName): void {
  describe(`prepared statement keys on ${dialect}`, () => {
    // SQLite's planner and PostgreSQL's plan cache read the LIMIT: they get it in the SQL, MySQL binds it.
    const inlinesLimit = dialect !== 'mysql';
    const suite = useStatementSuite(dialect, NAMESPACE);
    const { freshShop, uncachedShop } = suite;

    describe('spec §8 rule 1: statements are cached per query shape; filter values are bound as placeholders', () => {
      it('reuses one statement for list calls that differ only in filter values, and answers each call with its own values', async () => {
        const { db, shop } = freshShop();
        const cache = trackStats(db);
        const list = (where: Where) => shop.products.list({ input: { where } }).then(idsOf);

        expect(await list({ quantity: { eq: 10 } })).toEqual([2, 7]);
        expect(cache.change()).toEqual(MISS);
        expect(await list({ quantity: { eq: 20 } })).toEqual([4]);
        expect(cache.change()).toEqual(HIT);
        expect(await list({ quantity: { eq: 5 } })).toEqual([1]);
        expect(cache.change()).toEqual(HIT);

        expect(await list({ releasedAt: { eq: '2024-03-15T12:00:00.500Z' } })).toEqual([3]);
        expect(cache.change()).toEqual(MISS);
        expect(await list({ releasedAt: { eq: '2024-03-15T12:00:00.499Z' } })).toEqual([7]);
        expect(cache.change()).toEqual(HIT);

        expect(await list({ name: { contains: '50%_off' } })).toEqual([1]);
        expect(cache.change()).toEqual(MISS);
        expect(await list({ name: { contains: '*' } })).toEqual([2]);
        expect(cache.change()).toEqual(HIT);
        expect(statementCacheStats(db)).toEqual({ size: 3, capacity: 128, hits: 4, misses: 3, evictions: 0 });
      });

      it('reuses the statement of `in` with the same number of values, and prepares another for a different number', async () => {
        const { db, shop } = freshShop();
        const cache = trackStats(db);
        const list = (values: number[]) => shop.products.list({ input: { where: { quantity: { in: values } } } }).then(idsOf);

        expect(await list([5, 10])).toEqual([1, 2, 7]);
        expect(cache.change()).toEqual(MISS);
        expect(await list([0, 20])).toEqual([4, 6]);
        expect(cache.change()).toEqual(HIT);
        expect(await list([0, 20, 15])).toEqual([4, 5, 6]);
        expect(cache.change()).toEqual(MISS);
        expect(await list([10, 15, 20])).toEqual([2, 4, 5, 7]);
        expect(cache.change()).toEqual(HIT);
      });

      it('prepares a statement per selection: a different select is another statement', async () => {
        const { db, shop } = freshShop();
        const cache = trackStats(db);
        const where = { quantity: { eq: 10 } };

        expect((await shop.products.list({ input: { where } })).items).toEqual(rowsOf([2, 7]));
        expect(cache.change()).toEqual(MISS);
        expect((await shop.products.list({ input: { where, select: ['name'] } })).items).toEqual([{ name: 'beta*star' }, { name: 'Xray' }]);
        expect(cache.change()).toEqual(MISS);
        expect((await shop.products.list({ input: { where: { quantity: { eq: 20 } }, select: ['name'] } })).items).toEqual([{ name: 'Gamma_ray' }]);
        expect(cache.change()).toEqual(HIT);
        expect((await shop.products.list({ input: { where, select: ['id', 'name'] } })).items).toEqual([
          { id: 2, name: 'beta*star' },
          { id: 7, name: 'Xray' },
        ]);
        expect(cache.change()).toEqual(MISS);
      });

      it('prepares a statement per ordering: another direction or another field is another statement; asc is the default direction', async () => {
        const { db, shop } = freshShop();
        const cache = trackStats(db);
        const list = (orderBy: { field: 'id' | 'name' | 'quantity' | 'releasedAt'; direction?: 'asc' | 'desc' }[], values = [10, 15]) =>
          shop.products.list({ input: { where: { quantity: { in: values } }, orderBy } }).then(idsOf);

        expect(await list([{ field: 'quantity' }])).toEqual([2, 7, 5]);
        expect(cache.change()).toEqual(MISS);
        expect(await list([{ field: 'quantity', direction: 'asc' }], [15, 20])).toEqual([5, 4]);
        expect(cache.change()).toEqual(HIT);
        // Products 2 and 7 share quantity 10: the key breaks the tie in the sort's direction (issue 18).
        expect(await list([{ field: 'quantity', direction: 'desc' }])).toEqual([5, 7, 2]);
        expect(cache.change()).toEqual(MISS);
        expect(await list([{ field: 'releasedAt' }])).toEqual([2, 7, 5]);
        expect(cache.change()).toEqual(MISS);
        expect(await list([{ field: 'releasedAt', direction: 'desc' }])).toEqual([5, 7, 2]);
        expect(cache.change()).toEqual(MISS);
      });

      it('prepares a statement per filter structure: AND versus OR, NOT, and another operator on the same field', async () => {
        const { db, shop } = freshShop();
        const cache = trackStats(db);
        const list = (where: Where) => shop.products.list({ input: { where } }).then(idsOf);

        expect(await list({ AND: [{ quantity: { eq: 10 } }, { ownerId: { eq: 'alice' } }] })).toEqual([7]);
        expect(cache.change()).toEqual(MISS);
        expect(await list({ AND: [{ quantity: { eq: 20 } }, { ownerId: { eq: 'bob' } }] })).toEqual([4]);
        expect(cache.change()).toEqual(HIT);
        expect(await list({ OR: [{ quantity: { eq: 10 } }, { ownerId: { eq: 'alice' } }] })).toEqual([1, 2, 3, 7]);
        expect(cache.change()).toEqual(MISS);
        expect(await list({ NOT: { quantity: { eq: 10 } } })).toEqual([1, 4, 5, 6]);
        expect(cache.change()).toEqual(MISS);
        expect(await list({ quantity: { eq: 10 } })).toEqual([2, 7]);
        expect(cache.change()).toEqual(MISS);
        expect(await list({ quantity: { ne: 10 } })).toEqual([1, 4, 5, 6]);
        expect(cache.change()).toEqual(MISS);
        expect(await list({ quantity: { gte: 10 } })).toEqual([2, 4, 5, 7]);
        expect(cache.change()).toEqual(MISS);
        expect(await list({ id: { eq: 7 } })).toEqual([7]);
        expect(cache.change()).toEqual(MISS);
      });

      it('keeps list, count and exists with the same where apart, and lets findOne share the list statement of its limit', async () => {
        const { db, shop } = freshShop();
        const cache = trackStats(db);
        const where = { quantity: { eq: 10 } };

        // findOne reads one row; where LIMIT is written into the statement, it shares a list of limit 1.
        const limit = inlinesLimit ? 1 : 5;
        expect(idsOf(await shop.products.list({ input: { where, limit } }))).toEqual(inlinesLimit ? [2] : [2, 7]);
        expect(cache.change()).toEqual(MISS);
        expect(await shop.products.count({ input: { where } })).toEqual({ count: 2 });
        expect(cache.change()).toEqual(MISS);
        expect(await shop.products.exists({ input: { where } })).toEqual({ exists: true });
        expect(cache.change()).toEqual(MISS);
        expect(await shop.products.findOne({ input: { where: { quantity: { eq: 20 } } } })).toEqual(productRow(4));
        expect(cache.change()).toEqual(HIT);
        expect(await shop.products.count({ input: { where: { quantity: { eq: 5 } } } })).toEqual({ count: 1 });
        expect(cache.change()).toEqual(HIT);
        expect(await shop.products.exists({ input: { where: { quantity: { eq: 999 } } } })).toEqual({ exists: false });
        expect(cache.change()).toEqual(HIT);
        expect(statementCacheStats(db)).toEqual({ size: 3, capacity: 128, hits: 3, misses: 3, evictions: 0 });
      });

      it('binds limit and offset, except where the dialect writes the limit into the SQL and so into the key (SQLite, PostgreSQL)', async () => {
        const { db, shop } = freshShop();
        const cache = trackStats(db);
        const where = { quantity: { gte: 0 } };
        const ids = async (input: object) => idsOf(await shop.products.list({ input: { where, ...input } }));
        expect(await ids({ limit: 2 })).toEqual([1, 2]);
        expect(cache.change()).toEqual(MISS);
        // There, a page from the first row has no OFFSET at all; pages from a later row bind theirs.
        expect(await ids({ limit: 2, offset: 3 })).toEqual([5, 6]);
        expect(cache.change()).toEqual(inlinesLimit ? MISS : HIT);
        expect(await ids({ limit: 2, offset: 1 })).toEqual([2, 4]);
        expect(cache.change()).toEqual(HIT);
        expect(await ids({ limit: 2, offset: 0 })).toEqual([1, 2]);
        expect(cache.change()).toEqual(HIT);
        expect(await ids({ limit: 3 })).toEqual([1, 2, 4]);
        expect(cache.change()).toEqual(inlinesLimit ? MISS : HIT);
      });

      it('prepares get with select apart from get without select', async () => {
        const { db, shop } = freshShop();
        const cache = trackStats(db);

        expect(await shop.products.get({ input: { id: 1 } })).toEqual(productRow(1));
        expect(cache.change()).toEqual(MISS);
        expect(await shop.products.get({ input: { id: 3 } })).toEqual(productRow(3));
        expect(cache.change()).toEqual(HIT);
        expect(await shop.products.get({ input: { id: 1, select: ['name'] } })).toEqual({ name: 'Alpha 50%_off' });
        expect(cache.change()).toEqual(MISS);
        expect(await shop.products.get({ input: { id: 4, select: ['name'] } })).toEqual({ name: 'Gamma_ray' });
        expect(cache.change()).toEqual(HIT);
        await expect(shop.products.get({ input: { id: 99 } })).rejects.toMatchObject({ code: 'NOT_FOUND' });
        expect(cache.change()).toEqual(HIT);
      });
    });

    describe('spec §8 rule 1: values travel as placeholders, never in the SQL text', () => {
      function loggedShop() {
        const logged: { sql: string; params: unknown[] }[] = [];
        const db = suite.fixture.freshDb({ logQuery: (sql, params) => void logged.push({ sql, params }) });
        return { db, shop: defineShop(suite.fixture, db), lastQuery: () => logged[logged.length - 1] };
      }

      it('runs the same SQL text for two values, the value in the params, a quote and SQL-like text included', async () => {
        const { db, shop, lastQuery } = loggedShop();
        const reference = uncachedShop();
        const cache = trackStats(db);
        const injection = "x' OR '1'='1";

        const quoted = await shop.products.list({ input: { where: { name: { eq: injection } } } });
        const first = lastQuery();
        expect(quoted.items).toEqual(rowsOf([3]));
        expect(cache.change()).toEqual(MISS);
        const plain = await shop.products.list({ input: { where: { name: { eq: 'Xray' } } } });
        const second = lastQuery();
        expect(plain.items).toEqual(rowsOf([7]));
        expect(cache.change()).toEqual(HIT);

        expect(second.sql).toBe(first.sql);
        expect(first.sql).toContain(suite.fixture.placeholder);
        expect(first.sql).not.toContain("'1'='1");
        expect(first.sql).not.toContain('Xray');
        expect(first.params).toContain(injection);
        expect(second.params).toContain('Xray');
        expect(quoted).toEqual(await reference.products.list({ input: { where: { name: { eq: injection } } } }));
        expect(plain).toEqual(await reference.products.list({ input: { where: { name: { eq: 'Xray' } } } }));
      });

      it('binds contains patterns with %, _ and * as values: same SQL text, the text matched literally', async () => {
        const { db, shop, lastQuery } = loggedShop();
        const reference = uncachedShop();
        const cache = trackStats(db);

        const discount = await shop.products.list({ input: { where: { name: { contains: '50%_off' } } } });
        const first = lastQuery();
        expect(discount.items).toEqual(rowsOf([1])); // not `delta 50 off`: % and _ are no wildcards
        expect(cache.change()).toEqual(MISS);
        const star = await shop.products.list({ input: { where: { name: { contains: 'a*s' } } } });
        const second = lastQuery();
        expect(star.items).toEqual(rowsOf([2]));
        expect(cache.change()).toEqual(HIT);

        expect(second.sql).toBe(first.sql);
        expect(first.sql).toContain(suite.fixture.placeholder);
        expect(first.sql).not.toContain('50');
        expect(second.sql).not.toContain('a*s');
        expect(first.params.some((param) => typeof param === 'string' && param.includes('50') && param.includes('off'))).toBe(true);
        expect(second.params.some((param) => typeof param === 'string' && param.includes('a') && param.includes('*') && param.includes('s'))).toBe(true);
        expect(discount).toEqual(await reference.products.list({ input: { where: { name: { contains: '50%_off' } } } }));
        expect(star).toEqual(await reference.products.list({ input: { where: { name: { contains: 'a*s' } } } }));
      });

      it('binds the id of get and a date filter as placeholders: same SQL text for two values', async () => {
        const { shop, lastQuery } = loggedShop();

        expect(await shop.products.get({ input: { id: 3 } })).toEqual(productRow(3));
        const firstGet = lastQuery();
        expect(await shop.products.get({ input: { id: 7 } })).toEqual(productRow(7));
        const secondGet = lastQuery();
        expect(secondGet.sql).toBe(firstGet.sql);
        expect(firstGet.params).toContain(3);
        expect(secondGet.params).toContain(7);

        const list = (at: string) => shop.products.list({ input: { where: { releasedAt: { lte: at } } } }).then(idsOf);
        expect(await list('2024-01-01T00:00:00.000Z')).toEqual([1]);
        const firstDate = lastQuery();
        expect(await list('2024-03-15T12:00:00.499Z')).toEqual([1, 2, 7]);
        const secondDate = lastQuery();
        expect(secondDate.sql).toBe(firstDate.sql);
        expect(firstDate.sql).not.toContain('2024');
        expect(secondDate.params).not.toEqual(firstDate.params);
      });
    });

    describe('spec §8 rule 1: cached statements answer exactly as queries built per call', () => {
      it('answers every filter operator and AND/OR/NOT nesting row for row as the uncached database, on the first and the cached call', async () => {
        const { db, shop } = freshShop();
        const reference = uncachedShop();
        const cache = trackStats(db);
        for (const { where, ids } of WHERE_BATTERY) {
          const expected = await reference.products.list({ input: { where } });
          expect({ where, ids: idsOf(expected) }).toEqual({ where, ids });
          expect(expected.items).toEqual(rowsOf(ids));
          expect({ where, answer: await shop.products.list({ input: { where } }) }).toEqual({ where, answer: expected });
          cache.change();
          expect({ where, answer: await shop.products.list({ input: { where } }) }).toEqual({ where, answer: expected });
          expect({ where, change: cache.change() }).toEqual({ where, change: HIT });
        }
        expect(statementCacheStats(db).misses).toBeGreaterThan(WHERE_BATTERY.length / 2);
      });

      it('answers count, exists and findOne for every filter as the uncached database', async () => {
        const { shop } = freshShop();
        const reference = uncachedShop();
        for (const { where, ids } of WHERE_BATTERY) {
          const input = { where };
          const answers = {
            count: await shop.products.count({ input }),
            exists: await shop.products.exists({ input }),
            findOne: await shop.products.findOne({ input }),
          };
          expect({ where, ...answers }).toEqual({
            where,
            count: await reference.products.count({ input }),
            exists: await reference.products.exists({ input }),
            findOne: await reference.products.findOne({ input }),
          });
          expect({ where, ...answers }).toEqual({ where, count: { count: ids.length }, exists: { exists: ids.length > 0 }, findOne: ids.length > 0 ? productRow(ids[0]) : null });
        }
      });

      it('returns rows in the same order as the uncached database for every ordering, with limit and offset', async () => {
        const { shop } = freshShop();
        const reference = uncachedShop();
        for (const orderBy of ORDERINGS) {
          for (const { where } of WHERE_BATTERY) {
            for (const page of [{}, { limit: 2, offset: 1 }]) {
              const input = { where, orderBy: orderBy.map((entry) => ({ ...entry })), ...page };
              expect({ input, answer: await shop.products.list({ input }) }).toEqual({ input, answer: await reference.products.list({ input }) });
            }
          }
        }
      });
    });
  });
}
