// spec §8 and CONTRACT §5 (`statementCacheStats`) on one dialect, the cache around the keys of statement-key.suite.ts:
// stats per db object, the server constructor prepares the default get and list (rule 4, per handler mode), a non-empty
// scope (rule 2) and application default functions (rule 3) keep calls out, the least recently used statement leaves
// first, `statementCache: false` prepares nothing, and writes. Runners: statement-cache.<dialect>.test.ts.
import type { Express } from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer, crud, defineService, statementCacheStats, type CrudActions, type ServerOptions } from 'tessera-api';
import { BuiltBundle } from '../../helpers/bundle-loader';
import type { DialectName } from '../../helpers/databases';
import { defineShop, DEFAULT_CODE, LABEL_FIELDS, PRODUCTS, productRow, UPDATE_MARK, type Shop } from './statement-cache-fixture';
import { HIT, idsOf, MISS, rowsOf, trackStats, UNTOUCHED, useStatementSuite, type StatsChange } from './statement-cache-helpers';

/** This file's tables, apart from statement-key's (jest runs the two files in parallel). */
const NAMESPACE = 'statement_cache';

const FRESH_STATS = { size: 0, capacity: 128, hits: 0, misses: 0, evictions: 0 };

type HandlerModeName = 'generic' | 'compiled' | 'bundle';

/** The handler modes of the server (CONTRACT §5): the prepared statements must be the same in each. */
const HANDLER_MODES: { mode: HandlerModeName; title: string }[] = [
  { mode: 'generic', title: 'with the generic handler (compiler: false)' },
  { mode: 'compiled', title: 'with handlers compiled at construction (compiler: true, the default)' },
  { mode: 'bundle', title: 'with a built bundle (compilation)' },
];

/** Caller context over HTTP: `x-admin: yes` is a caller whose scope is undefined; `x-user` names the owner. */
function headerContext(req: { headers: Record<string, string | string[] | undefined> }) {
  return { admin: req.headers['x-admin'] === 'yes', user: req.headers['x-user'] };
}

export function statementCacheSuite(dialect: DialectName): void {
  describe(`prepared statement cache on ${dialect}`, () => {
    const suite = useStatementSuite(dialect, NAMESPACE);
    const { freshShop, uncachedShop } = suite;
    const servers: Server[] = [];

    afterEach(async () => {
      for (const server of servers.splice(0)) await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    async function listen(app: Express): Promise<string> {
      const server: Server = await new Promise((resolve) => {
        const started = app.listen(0, '127.0.0.1', () => resolve(started));
      });
      servers.push(server);
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }

    async function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
      const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      return { status: response.status, body: await response.json() };
    }

    async function getJson(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: any }> {
      const response = await fetch(url, { headers });
      return { status: response.status, body: await response.json() };
    }

    describe('statementCacheStats(db)', () => {
      it('answers exactly size, capacity, hits, misses and evictions, with capacity 128 and zeros for a fresh db', () => {
        const stats = statementCacheStats(suite.fixture.freshDb());
        expect(Object.keys(stats).sort()).toEqual(['capacity', 'evictions', 'hits', 'misses', 'size']);
        expect(stats).toEqual(FRESH_STATS);
      });

      it('counts per database object: calls through one db object leave another over the same client at zero', async () => {
        const { db, shop } = freshShop();
        const other = suite.fixture.freshDb();
        await shop.products.get({ input: { id: 1 } });
        await shop.products.get({ input: { id: 2 } });
        expect(statementCacheStats(db)).toEqual({ size: 1, capacity: 128, hits: 1, misses: 1, evictions: 0 });
        expect(statementCacheStats(other)).toEqual(FRESH_STATS);
      });
    });

    describe('spec §8 rule 4: the server constructor prepares the default list and get statements', () => {
      // One build per set of definitions, as one bundle is started again and again.
      const bundle = new BuiltBundle();
      const lateBundle = new BuiltBundle();
      afterAll(() => {
        bundle.remove();
        lateBundle.remove();
      });

      for (const { mode, title } of HANDLER_MODES) {
        describe(title, () => {
          /** createServer in this handler mode; `build` is the bundle for these definitions (bundle mode). */
          function serveIn(options: ServerOptions, build: BuiltBundle): Express {
            if (mode === 'generic') return createServer({ ...options, compiler: false });
            if (mode === 'compiled') return createServer(options);
            return createServer({ ...options, compilation: build.compilationFor(options) });
          }

          const serve = (shop: Shop) => serveIn({ services: [shop.service], docs: false, requestLogging: false, context: headerContext }, bundle);

          it('prepares the get and list statements of a public resource while the server is built: size 2, no miss', () => {
            const { db, shop } = freshShop();
            expect(statementCacheStats(db)).toEqual(FRESH_STATS);
            serve(shop);
            expect(statementCacheStats(db)).toEqual({ size: 2, capacity: 128, hits: 0, misses: 0, evictions: 0 });
          });

          it('answers the first GET /api/<resource>/<id> and the first default list from the prepared statements: a hit each, no miss', async () => {
            const { db, shop } = freshShop();
            const url = await listen(serve(shop));
            const cache = trackStats(db);

            const got = await getJson(`${url}/api/products/3`);
            expect(got).toEqual({ status: 200, body: productRow(3) });
            expect(cache.change()).toEqual(HIT);

            const listed = await postJson(`${url}/api/products/query`, {});
            expect(listed.status).toBe(200);
            expect(listed.body.items).toEqual(rowsOf([1, 2, 3, 4, 5, 6, 7]));
            expect(cache.change()).toEqual(HIT);

            expect((await getJson(`${url}/api/products/7`)).body).toEqual(productRow(7));
            expect(cache.change()).toEqual(HIT);
            expect(statementCacheStats(db)).toEqual({ size: 2, capacity: 128, hits: 3, misses: 0, evictions: 0 });
          });

          it('prepares the default statements of a table created after the server is built, and answers from them once it exists', async () => {
            const db = suite.fixture.freshDb();
            const service = defineService({ name: 'late', db });
            service.resource({ name: 'late', table: suite.fixture.lateTable, id: suite.fixture.lateTable.id }).use(crud({ access: 'public', fields: LABEL_FIELDS }));
            const app = serveIn({ services: [service], docs: false, requestLogging: false }, lateBundle);
            expect(statementCacheStats(db)).toEqual({ size: 2, capacity: 128, hits: 0, misses: 0, evictions: 0 });
            await suite.fixture.createLateTable();
            try {
              const url = await listen(app);
              expect(await postJson(`${url}/api/late`, { label: 'first' })).toEqual({ status: 201, body: { id: 1, label: 'first' } });
              const cache = trackStats(db);
              expect(await getJson(`${url}/api/late/1`)).toEqual({ status: 200, body: { id: 1, label: 'first' } });
              expect(cache.change()).toEqual(HIT);
              expect(await postJson(`${url}/api/late/query`, {})).toEqual({ status: 200, body: { items: [{ id: 1, label: 'first' }] } });
              expect(cache.change()).toEqual(HIT);
            } finally {
              await suite.fixture.dropLateTable();
            }
          });

          it('prepares nothing for a resource with a scope function, nor for tables with $defaultFn or $onUpdateFn columns', async () => {
            const { db, shop } = freshShop();
            await shop.stamped.create({ input: { label: 'one' } });
            await shop.revised.create({ input: { label: 'one' } });
            const url = await listen(serve(shop));
            const cache = trackStats(db);

            // A caller whose scope is undefined uses the cache (rule 2), so a missing statement shows as a miss.
            const admin = { 'x-admin': 'yes' };
            expect((await getJson(`${url}/api/ownedProducts/2`, admin)).body).toEqual(productRow(2));
            expect(cache.change()).toEqual(MISS);
            expect((await postJson(`${url}/api/ownedProducts/query`, {}, admin)).body.items).toHaveLength(7);
            expect(cache.change()).toEqual(MISS);

            expect((await getJson(`${url}/api/stamped/1`)).body).toEqual({ id: 1, label: 'one', code: DEFAULT_CODE });
            expect((await postJson(`${url}/api/stamped/query`, {})).body.items).toHaveLength(1);
            expect((await getJson(`${url}/api/revised/1`)).body).toEqual({ id: 1, label: 'one', revision: UPDATE_MARK });
            expect((await postJson(`${url}/api/revised/query`, {})).body.items).toHaveLength(1);
            expect(cache.change()).toEqual(UNTOUCHED);
            expect(statementCacheStats(db).size).toBe(4); // products' two prepared + ownedProducts' two prepared on first call
          });
        });
      }
    });

    describe('spec §8 rule 2: caching is skipped when a call has a non-empty scope condition', () => {
      it('leaves the stats unchanged for every action of a caller with a non-empty scope, and answers inside the scope', async () => {
        const { db, shop } = freshShop();
        const cache = trackStats(db);
        const ctx = { user: 'alice' };
        const owned = shop.ownedProducts;

        expect(idsOf(await owned.list({ input: {}, ctx }))).toEqual([1, 3, 7]);
        expect(idsOf(await owned.list({ input: { where: { quantity: { eq: 10 } } }, ctx }))).toEqual([7]);
        expect(await owned.get({ input: { id: 3 }, ctx })).toEqual(productRow(3));
        await expect(owned.get({ input: { id: 2 }, ctx })).rejects.toMatchObject({ code: 'NOT_FOUND' });
        expect(await owned.findOne({ input: { where: { quantity: { isNotNull: true } } }, ctx })).toEqual(productRow(1));
        expect(await owned.count({ input: {}, ctx })).toEqual({ count: 3 });
        expect(await owned.exists({ input: { where: { ownerId: { eq: 'bob' } } }, ctx })).toEqual({ exists: false });
        const created = await owned.create({ input: { name: 'epsilon', quantity: 1, ownerId: 'alice' }, ctx });
        expect(created).toMatchObject({ id: 8, name: 'epsilon', ownerId: 'alice' });
        expect(await owned.update({ input: { id: 8, data: { quantity: 2 } }, ctx })).toMatchObject({ id: 8, quantity: 2 });
        expect(await owned.delete({ input: { id: 8 }, ctx })).toEqual({ success: true });
        expect(cache.change()).toEqual(UNTOUCHED);
        expect(statementCacheStats(db)).toEqual(FRESH_STATS);
      });

      it('uses the cache for the same calls when the scope function answers undefined for the caller: a miss, then a hit', async () => {
        const { db, shop } = freshShop();
        const cache = trackStats(db);
        const ctx = { admin: true };
        const owned = shop.ownedProducts;

        expect(idsOf(await owned.list({ input: {}, ctx }))).toEqual([1, 2, 3, 4, 5, 6, 7]);
        expect(cache.change()).toEqual(MISS);
        expect(idsOf(await owned.list({ input: {}, ctx }))).toEqual([1, 2, 3, 4, 5, 6, 7]);
        expect(cache.change()).toEqual(HIT);
        expect(await owned.get({ input: { id: 2 }, ctx })).toEqual(productRow(2));
        expect(cache.change()).toEqual(MISS);
        expect(await owned.get({ input: { id: 4 }, ctx })).toEqual(productRow(4));
        expect(cache.change()).toEqual(HIT);
        expect(await owned.count({ input: { where: { ownerId: { eq: 'bob' } } }, ctx })).toEqual({ count: 2 });
        expect(cache.change()).toEqual(MISS);
        expect(await owned.count({ input: { where: { ownerId: { eq: 'carol' } } }, ctx })).toEqual({ count: 2 });
        expect(cache.change()).toEqual(HIT);
        // A member's call between them still leaves the stats alone.
        expect(await owned.count({ input: { where: { ownerId: { eq: 'carol' } } }, ctx: { user: 'carol' } })).toEqual({ count: 2 });
        expect(cache.change()).toEqual(UNTOUCHED);
      });
    });

    describe('spec §8 rule 2 for a route scope (routes.<action>.scope): a non-empty one skips the cache', () => {
      const bundle = new BuiltBundle();
      afterAll(() => bundle.remove());

      /** A public resource whose list, get and count routes have a scope, undefined for `x-admin: yes`. */
      function routedShop() {
        const db = suite.fixture.freshDb();
        const { products } = suite.fixture.tables;
        const service = defineService({ name: 'routed', db });
        const scope = ({ ctx }: { ctx: Record<string, any> }) => (ctx.admin === true ? undefined : { ownerId: { eq: ctx.user } });
        const resource = service.resource({ name: 'products', table: products, id: products.id }).use(
          crud({ access: 'public', fields: { id: { read: true }, name: { read: true, update: true }, ownerId: { read: true, filter: ['eq'] } }, routes: { list: { scope }, get: { scope }, count: { scope }, update: { scope } } }),
        );
        return { db, service, resource };
      }

      for (const { mode, title } of HANDLER_MODES) {
        it(`${title}: leaves the stats unchanged for calls whose route scope is non-empty, and caches the others`, async () => {
          const { db, service, resource } = routedShop();
          const options: ServerOptions = { services: [service], docs: false, requestLogging: false, context: headerContext };
          const app =
            mode === 'generic' ? createServer({ ...options, compiler: false }) : mode === 'compiled' ? createServer(options) : createServer({ ...options, compilation: bundle.compilationFor(options) });
          // Rule 4 prepares nothing for a route with its own scope: it may not run the fixed shapes.
          expect(statementCacheStats(db)).toEqual(FRESH_STATS);
          const url = await listen(app);
          const cache = trackStats(db);
          const alice = { 'x-user': 'alice' };

          expect(idsOf((await postJson(`${url}/api/products/query`, {}, alice)).body)).toEqual([1, 3, 7]);
          expect((await getJson(`${url}/api/products/3`, alice)).body).toEqual({ id: 3, name: PRODUCTS[2].name, ownerId: 'alice' });
          expect((await getJson(`${url}/api/products/2`, alice)).status).toBe(404);
          expect((await postJson(`${url}/api/products/count`, {}, alice)).body).toEqual({ count: 3 });
          const patched = await fetch(`${url}/api/products/2`, { method: 'PATCH', headers: { 'content-type': 'application/json', ...alice }, body: '{"name":"taken"}' });
          expect(patched.status).toBe(404);
          expect(cache.change()).toEqual(UNTOUCHED);

          const admin = { 'x-admin': 'yes' };
          expect(idsOf((await postJson(`${url}/api/products/query`, {}, admin)).body)).toEqual([1, 2, 3, 4, 5, 6, 7]);
          expect(cache.change()).toEqual(MISS);
          expect((await getJson(`${url}/api/products/2`, admin)).status).toBe(200);
          expect(cache.change()).toEqual(MISS);
          // The same shapes in-process (no route scope): the generic handler's calls prepared those statements; a
          // compiled handler's calls prepared the fixed shapes' (keys of their own), so in-process prepares its own once.
          expect(idsOf(await resource.list())).toEqual([1, 2, 3, 4, 5, 6, 7]);
          expect(await resource.get({ input: { id: 4 } })).toMatchObject({ id: 4 });
          expect(cache.change()).toEqual(mode === 'generic' ? { ...HIT, hits: 2 } : { ...MISS, size: 2, misses: 2 });
          expect(idsOf(await resource.list())).toEqual([1, 2, 3, 4, 5, 6, 7]);
          expect(cache.change()).toEqual(HIT);
        });
      }
    });

    describe('spec §8 rule 3: caching is skipped for any table with an application default or on-update function', () => {
      const TABLES = [
        { resource: 'stamped', title: 'a $defaultFn column', extra: { code: DEFAULT_CODE } },
        { resource: 'revised', title: 'only an $onUpdateFn column', extra: { revision: UPDATE_MARK } },
      ] as const;

      for (const { resource, title, extra } of TABLES) {
        it(`leaves the stats unchanged for list, get, findOne, count, exists, create, update and delete on a table with ${title}, with right answers`, async () => {
          const { db, shop } = freshShop();
          createServer({ services: [shop.service], compiler: false, docs: false, requestLogging: false });
          const before = statementCacheStats(db);
          expect(before.size).toBe(2); // only products' get and list (rule 4)
          const cache = trackStats(db);
          // One of several resources, each typed by its own policy: the calls below hold for every one.
          const target = shop[resource] as unknown as CrudActions<any>;

          expect(await target.create({ input: { label: 'one' } })).toEqual({ id: 1, label: 'one', ...extra });
          expect(await target.create({ input: { label: 'two' } })).toEqual({ id: 2, label: 'two', ...extra });
          expect(await target.get({ input: { id: 1 } })).toEqual({ id: 1, label: 'one', ...extra });
          expect(await target.list({ input: { where: { label: { eq: 'two' } } } })).toEqual({ items: [{ id: 2, label: 'two', ...extra }] });
          expect(await target.findOne({ input: { where: { label: { contains: 'on' } } } })).toEqual({ id: 1, label: 'one', ...extra });
          expect(await target.count({ input: {} })).toEqual({ count: 2 });
          expect(await target.exists({ input: { where: { label: { eq: 'three' } } } })).toEqual({ exists: false });
          expect(await target.update({ input: { id: 2, data: { label: 'deux' } } })).toEqual({ id: 2, label: 'deux', ...extra });
          expect(await target.delete({ input: { id: 1 } })).toEqual({ success: true });
          await expect(target.get({ input: { id: 1 } })).rejects.toMatchObject({ code: 'NOT_FOUND' });
          expect(await target.list({ input: {} })).toEqual({ items: [{ id: 2, label: 'deux', ...extra }] });

          expect(cache.change()).toEqual(UNTOUCHED);
          expect(statementCacheStats(db)).toEqual(before);
        });
      }
    });

    describe('spec §8: up to 128 statements per database, the least recently used evicted first', () => {
      it('holds 128 shapes without eviction; the 129th evicts the least recently used, and only that one', async () => {
        const { db, shop } = freshShop();
        // `in` with 1..n values: one shape per arity (MAX_IN_VALUES is 1000).
        const listFirst = (arity: number) =>
          shop.products.list({ input: { where: { id: { in: Array.from({ length: arity }, (_, index) => index + 1) } }, select: ['id'] } }).then(idsOf);

        for (let arity = 1; arity <= 128; arity++) await listFirst(arity);
        expect(statementCacheStats(db)).toEqual({ size: 128, capacity: 128, hits: 0, misses: 128, evictions: 0 });
        const cache = trackStats(db);

        expect(await listFirst(1)).toEqual([1]); // shape #1 is now the most recently used
        expect(cache.change()).toEqual(HIT);
        expect(await listFirst(129)).toEqual([1, 2, 3, 4, 5, 6, 7]);
        expect(cache.change()).toEqual({ size: 0, hits: 0, misses: 1, evictions: 1 });
        expect(statementCacheStats(db)).toMatchObject({ size: 128, evictions: 1 });

        expect(await listFirst(2)).toEqual([1, 2]); // #2 was the least recently used: gone
        expect(cache.change()).toEqual({ size: 0, hits: 0, misses: 1, evictions: 1 });
        expect(await listFirst(1)).toEqual([1]);
        expect(cache.change()).toEqual(HIT);
        expect(await listFirst(129)).toEqual([1, 2, 3, 4, 5, 6, 7]);
        expect(cache.change()).toEqual(HIT);
        expect(statementCacheStats(db)).toEqual({ size: 128, capacity: 128, hits: 3, misses: 130, evictions: 2 });
      });
    });

    describe('createServer({ statementCache: false })', () => {
      it('prepares no statement at construction and keeps hits and misses at 0, answering every read and write right', async () => {
        const { db, shop } = freshShop();
        const url = await listen(createServer({ services: [shop.service], statementCache: false, docs: false, requestLogging: false }));
        expect(statementCacheStats(db)).toEqual(FRESH_STATS);

        for (let round = 0; round < 2; round++) {
          expect(await getJson(`${url}/api/products/3`)).toEqual({ status: 200, body: productRow(3) });
          expect((await postJson(`${url}/api/products/query`, {})).body.items).toEqual(rowsOf([1, 2, 3, 4, 5, 6, 7]));
          expect(idsOf(await shop.products.list({ input: { where: { name: { contains: '50%_off' } } } }))).toEqual([1]);
          expect(await shop.products.findOne({ input: { where: { releasedAt: { eq: '2024-03-15T12:00:00.500Z' } } } })).toEqual(productRow(3));
          expect(await shop.products.count({ input: { where: { quantity: { in: [10, 20] } } } })).toEqual({ count: 3 });
          expect(await shop.products.exists({ input: { where: { name: { eq: "x' OR '1'='1" } } } })).toEqual({ exists: true });
          expect(await shop.ownedProducts.get({ input: { id: 5 }, ctx: { admin: true } })).toEqual(productRow(5));
          const created = await shop.products.create({ input: { name: `theta ${round}`, ownerId: 'dave', releasedAt: null } });
          expect(created).toMatchObject({ id: 8 + round, releasedAt: null });
          expect(await shop.products.update({ input: { id: created.id as number, data: { quantity: round } } })).toMatchObject({ quantity: round });
          expect(await shop.products.delete({ input: { id: created.id as number } })).toEqual({ success: true });
        }
        expect(statementCacheStats(db)).toEqual(FRESH_STATS);
      });

      if (dialect === 'postgres') {
        const PREPARED = 'SELECT name FROM pg_prepared_statements ORDER BY name';

        it('with the cache on, leaves tessera_… named prepared statements in the PostgreSQL session after a get', async () => {
          const session = suite.fixture.openPostgresSession();
          const shop = defineShop(suite.fixture, session.db);
          createServer({ services: [shop.service], compiler: false, docs: false, requestLogging: false });
          expect(await shop.products.get({ input: { id: 1 } })).toEqual(productRow(1));
          const names: string[] = (await session.pool.query(PREPARED)).rows.map((row: { name: string }) => row.name);
          expect(names.length).toBeGreaterThan(0);
          expect(names.every((name) => /^tessera_[0-9a-f]{40}$/.test(name))).toBe(true);
        });

        it('with statementCache: false, leaves no named prepared statement in the PostgreSQL session', async () => {
          const session = suite.fixture.openPostgresSession();
          const shop = defineShop(suite.fixture, session.db);
          createServer({ services: [shop.service], statementCache: false, compiler: false, docs: false, requestLogging: false });
          expect(await shop.products.get({ input: { id: 1 } })).toEqual(productRow(1));
          expect(idsOf(await shop.products.list({ input: { where: { quantity: { eq: 10 } } } }))).toEqual([2, 7]);
          expect(await shop.products.count({ input: {} })).toEqual({ count: 7 });
          expect(await shop.products.exists({ input: { where: { id: { eq: 7 } } } })).toEqual({ exists: true });
          expect(await shop.products.create({ input: { name: 'epsilon', ownerId: 'bob' } })).toMatchObject({ id: 8, name: 'epsilon' });
          expect(await shop.products.update({ input: { id: 8, data: { quantity: 3 } } })).toMatchObject({ id: 8, quantity: 3 });
          expect(await shop.products.delete({ input: { id: 8 } })).toEqual({ success: true });
          expect((await session.pool.query(PREPARED)).rows).toEqual([]);
        });
      }
    });

    describe('spec §8 rule 1 for writes: one statement per set of written columns', () => {
      /** MySQL has no RETURNING: its create and update read the row back through one more cached statement. */
      const READ_BACK = dialect === 'mysql' ? 1 : 0;
      const written = (misses: number, hits: number): StatsChange => ({ size: misses, hits, misses, evictions: 0 });

      it('reuses the create statement for the same set of fields and prepares another for a different set; rows are written right', async () => {
        const { db, shop } = freshShop();
        const cache = trackStats(db);
        const row = { isActive: true, releasedAt: null, featured: null, quantity: null, note: null };

        const first = await shop.products.create({ input: { name: 'epsilon', quantity: 1, ownerId: 'dave' } });
        expect(first).toEqual({ ...row, id: 8, name: 'epsilon', quantity: 1, ownerId: 'dave' });
        expect(cache.change()).toEqual(written(1 + READ_BACK, 0));
        const second = await shop.products.create({ input: { name: 'zeta', quantity: 2, ownerId: 'erin' } });
        expect(second).toEqual({ ...row, id: 9, name: 'zeta', quantity: 2, ownerId: 'erin' });
        expect(cache.change()).toEqual(written(0, 1 + READ_BACK));
        const input = { name: "x' OR '1'='1", ownerId: 'dave', note: '100%_', releasedAt: '2024-07-01T00:00:00.001Z', isActive: false, featured: true };
        const third = await shop.products.create({ input });
        expect(third).toEqual({ ...row, ...input, id: 10 });
        expect(cache.change()).toEqual(written(1, READ_BACK));

        const reference = uncachedShop();
        expect((await reference.products.list({ input: { where: { id: { gte: 8 } } } })).items).toEqual([first, second, third]);
      });

      it('reuses the update statement for the same set of fields and prepares another for a different set; rows are written right', async () => {
        const { db, shop } = freshShop();
        await shop.products.update({ input: { id: 1, data: { quantity: 11 } } });
        const cache = trackStats(db);

        expect(await shop.products.update({ input: { id: 2, data: { quantity: 12 } } })).toEqual({ ...productRow(2), quantity: 12 });
        expect(cache.change()).toEqual(written(0, 1 + READ_BACK));
        const data = { note: "it's 50%_off", releasedAt: '2025-01-02T03:04:05.678Z', isActive: false, featured: true };
        expect(await shop.products.update({ input: { id: 3, data } })).toEqual({ ...productRow(3), ...data });
        expect(cache.change()).toEqual(written(1, READ_BACK));
        await expect(shop.products.update({ input: { id: 99, data: { quantity: 1 } } })).rejects.toMatchObject({ code: 'NOT_FOUND' });
        expect(cache.change()).toEqual(HIT);

        const reference = uncachedShop();
        expect((await reference.products.list({ input: { where: { id: { lte: 3 } } } })).items).toEqual([
          { ...productRow(1), quantity: 11 },
          { ...productRow(2), quantity: 12 },
          { ...productRow(3), ...data },
        ]);
      });

      it('reuses the delete statement; rows are deleted right', async () => {
        const { db, shop } = freshShop();
        const cache = trackStats(db);
        expect(await shop.products.delete({ input: { id: 1 } })).toEqual({ success: true });
        expect(cache.change()).toEqual(MISS);
        expect(await shop.products.delete({ input: { id: 2 } })).toEqual({ success: true });
        expect(cache.change()).toEqual(HIT);
        await expect(shop.products.delete({ input: { id: 2 } })).rejects.toMatchObject({ code: 'NOT_FOUND' });
        expect(cache.change()).toEqual(HIT);

        const reference = uncachedShop();
        expect(idsOf(await reference.products.list({ input: {} }))).toEqual([3, 4, 5, 6, 7]);
      });

      it('writes null to a nullable date column through the cached create and update statements, as without the cache', async () => {
        const { shop } = freshShop();
        const reference = uncachedShop();
        const created = await shop.products.create({ input: { name: 'theta', ownerId: 'dave', releasedAt: null } });
        expect(created).toMatchObject({ id: 8, releasedAt: null });
        expect(await shop.products.update({ input: { id: 1, data: { releasedAt: null } } })).toEqual({ ...productRow(1), releasedAt: null });
        expect(idsOf(await reference.products.list({ input: { where: { releasedAt: { isNull: true } } } }))).toEqual([1, 4, 8]);
      });

      it('writes null to a nullable boolean column through the cached create and update statements, as without the cache', async () => {
        const { shop } = freshShop();
        const reference = uncachedShop();
        const created = await shop.products.create({ input: { name: 'theta', ownerId: 'dave', featured: null } });
        expect(created).toMatchObject({ id: 8, featured: null });
        expect(await shop.products.update({ input: { id: 1, data: { featured: null } } })).toEqual({ ...productRow(1), featured: null });
        expect(idsOf(await reference.products.list({ input: { where: { featured: { isNull: true } } } }))).toEqual([1, 2, 4, 7, 8]);
      });
    });
  });
}
