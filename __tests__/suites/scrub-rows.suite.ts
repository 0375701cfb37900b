// docs/access.md: a scrub sees every readable field's stored value, whatever `select` narrows the answer to (top level
// and inside includes), so a scrub that reads another field of the row masks alike with and without `select`.
// A service of its own over the test tables: items whose email and price scrubs read the row, and their categories.
import { crud, defineService } from 'tessera-api';
import { useSuiteFixture, type SuiteRun } from '../helpers/suite-fixture';
import { ADMIN, ALICE, BOB, listen, type TestServer, type TestUser } from '../helpers/test-app';

interface Answer {
  status: number;
  body: any;
}

function defineScrubbedService(db: unknown, tables: { items: any; categories: any }) {
  const { items, categories } = tables;
  const scrubbed = defineService({ name: 'scrubbed', db });
  let categoriesRef: object;
  const itemsResource = scrubbed.resource({ name: 'items', table: items, id: items.id }).use(
    crud({
      access: 'public',
      fields: {
        id: { read: true, sort: true },
        name: { read: true },
        active: { read: true },
        ownerId: { read: true },
        // An inactive item's email is private to admins.
        email: { read: true, scrub: ({ value, row, ctx }) => (row.active === false && ctx.user?.role !== 'admin' ? '***' : value) },
        // Only its owner sees an item's price.
        price: { read: true, scrub: ({ value, row, ctx }) => (row.ownerId === ctx.user?.id ? value : null) },
        categoryId: { read: true },
      },
      relations: { category: { resource: () => categoriesRef } },
    }),
  );
  categoriesRef = scrubbed.resource({ name: 'categories', table: categories, id: categories.id }).use(
    crud({ access: 'public', fields: { id: { read: true, sort: true }, name: { read: true } }, relations: { items: { resource: itemsResource } } }),
  );
  return scrubbed;
}

export function scrubRowsSuite(run: SuiteRun): void {
  describe('scrub sees the whole row, whatever the select', () => {
    const fixture = useSuiteFixture(run);
    let server: TestServer;
    let id: number;

    beforeAll(async () => {
      // In bundle mode this builds the service's own bundle (and removes it on close).
      server = await listen({ services: [defineScrubbedService(fixture.database.db, fixture.database.tables)] }, { mode: run.mode, recording: run.recording });
    });
    afterAll(async () => {
      await server?.close();
    });
    beforeEach(async () => {
      await fixture.database.raw("INSERT INTO t_categories (id, name) VALUES (1, 'Tools')");
      const input = { name: 'Closed', active: false, email: 'closed@example.com', price: 7, categoryId: 1 };
      id = (await fixture.service.items.create({ input, ctx: { user: ALICE } })).id as number;
    });

    async function call(method: string, path: string, user: TestUser | null, body?: unknown): Promise<Answer> {
      const headers: Record<string, string> = {};
      if (user !== null) headers['x-test-user'] = JSON.stringify({ user });
      if (body !== undefined) headers['content-type'] = 'application/json';
      const response = await server.fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
      return { status: response.status, body: await response.json() };
    }

    it('masks a field whose scrub reads another field alike with and without select, in get, list and findOne', async () => {
      const whole = await call('GET', `/api/items/${id}`, null);
      expect(whole.body).toEqual({ id, name: 'Closed', active: false, ownerId: 'alice', email: '***', price: null, categoryId: 1 });
      expect((await call('GET', `/api/items/${id}?select=email`, null)).body).toEqual({ email: '***' });
      expect((await call('POST', '/api/items/query', BOB, { select: ['email'] })).body).toEqual({ items: [{ email: '***' }] });
      expect((await call('POST', '/api/items/find-one', BOB, { select: ['name', 'email'] })).body).toEqual({ name: 'Closed', email: '***' });
      expect((await call('GET', `/api/items/${id}?select=email`, ADMIN)).body).toEqual({ email: 'closed@example.com' });
    });

    it("shows the owner the fields their scrub grants from the row, with select too, and answers only the selected fields", async () => {
      expect((await call('GET', `/api/items/${id}?select=price`, ALICE)).body).toEqual({ price: 7 });
      expect((await call('GET', `/api/items/${id}?select=price`, BOB)).body).toEqual({ price: null });
      expect((await call('POST', '/api/items/query', ALICE, { select: ['name', 'price'], orderBy: [{ field: 'id' }] })).body).toEqual({ items: [{ name: 'Closed', price: 7 }] });
      expect((await call('POST', '/api/items/query', ALICE, { select: ['price'], cursor: true })).body).toEqual({ items: [{ price: 7 }], nextCursor: null });
    });

    it('gives the scrubs of included rows their whole row when the include selects', async () => {
      const included = await call('POST', '/api/categories/query', BOB, { include: { items: { select: ['email', 'price'] } } });
      expect(included.body).toEqual({ items: [{ id: 1, name: 'Tools', items: [{ email: '***', price: null }] }] });
      const owners = await call('POST', '/api/categories/find-one', ALICE, { select: ['name'], include: { items: { select: ['price'] } } });
      expect(owners.body).toEqual({ name: 'Tools', items: [{ price: 7 }] });
      const nested = await call('POST', '/api/items/query', ALICE, { select: ['name'], include: { category: { include: { items: { select: ['email', 'price'] } } } } });
      expect(nested.body.items[0].category.items).toEqual([{ email: '***', price: 7 }]);
    });
  });
}
