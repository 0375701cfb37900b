// Issue 32 on one database: requests the OpenAPI document allows never meet a limit of the database itself (a 500).
// AND / OR lists are bounded by `maxItems`; the conditions and bound values of a whole where by the totals the
// document publishes (x-tessera-where-limits). Each limit is tried at its edge (answered) and just past it
// (400 VALIDATION_ERROR), on the generic and compiled handlers (a bundle runs the compiled handlers' validators).
import { openDatabase, type DialectName, type TestDatabase } from '../../helpers/databases';
import { clearRegistry, defineTestService, listen, type TestServer } from '../../helpers/test-app';

interface WhereLimits {
  maxItems: number;
  maxConditions: number;
  maxValues: number;
}

const titleIs = (index: number) => ({ title: { eq: `t${index}` } });
const range = (count: number) => Array.from({ length: count }, (_, index) => index);

/** `count` in-lists of ids, `size` values each (the last one shorter when `total` is not a multiple). */
function inLists(total: number, size = 1000): { AND: { id: { in: string[] } }[] } {
  const lists: { id: { in: string[] } }[] = [];
  for (let start = 0; start < total; start += size) lists.push({ id: { in: range(Math.min(size, total - start)).map(String) } });
  return { AND: lists };
}

export function whereLimitsSuite(dialect: DialectName): void {
  describe.each(['generic', 'compiled'] as const)(`where limits on ${dialect}, %s handlers`, (mode) => {
    let database: TestDatabase;
    let server: TestServer;
    let limits: WhereLimits;

    beforeAll(async () => {
      clearRegistry();
      database = await openDatabase(dialect, 'where_limits');
      await database.reset();
      const service = defineTestService(database);
      server = await listen({ services: [service.shop], errorLogger: false }, { mode });
      await service.notes.create({ input: { title: 't0' } });
      const document = (await (await server.fetch('/openapi.json')).json()) as any;
      const where = document.components.schemas['shop.notes.Where'];
      limits = { maxItems: where.properties.OR.maxItems, ...where['x-tessera-where-limits'] };
    }, 60_000);

    afterAll(async () => {
      await server?.close();
      await database?.close();
      clearRegistry();
    });

    async function query(action: 'query' | 'count', where: unknown): Promise<{ status: number; body: any }> {
      const response = await server.fetch(`/api/notes/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ where }) });
      return { status: response.status, body: await response.json() };
    }

    it('publishes its limits in the OpenAPI document', () => {
      expect(limits.maxItems).toBe(100);
      expect(limits.maxConditions).toBe(200);
      expect(limits.maxValues).toBe({ sqlite: 32_000, mysql: 6_000, postgres: 65_000 }[dialect]);
    });

    it.each(['OR', 'AND'] as const)('answers an %s at its maxItems, and 400 VALIDATION_ERROR for one item more (and for the 1,000 or 1,200 of the issue)', async (junction) => {
      for (const action of ['query', 'count'] as const) {
        expect((await query(action, { [junction]: range(limits.maxItems).map(titleIs) })).status).toBe(200);
        for (const count of [limits.maxItems + 1, 1000, 1200]) {
          const answer = await query(action, { [junction]: range(count).map(titleIs) });
          expect(answer.status).toBe(400);
          expect(answer.body.error.code).toBe('VALIDATION_ERROR');
          expect(answer.body.error.details[0].path).toBe(`/where/${junction}`);
        }
      }
    });

    it('answers a where of exactly maxConditions conditions, and 400 VALIDATION_ERROR naming the total for one more', async () => {
      // ORs of at most maxItems each: every array within its maxItems, the whole at the total or past it by one.
      const nested = (total: number) => ({
        AND: range(Math.ceil(total / limits.maxItems)).map((part) => ({ OR: range(Math.min(limits.maxItems, total - part * limits.maxItems)).map(titleIs) })),
      });
      expect((await query('query', nested(limits.maxConditions))).status).toBe(200);
      const answer = await query('query', nested(limits.maxConditions + 1));
      expect(answer.status).toBe(400);
      expect(answer.body.error).toEqual({
        code: 'VALIDATION_ERROR',
        message: expect.stringContaining(`at most ${limits.maxConditions} conditions`),
        details: [{ path: '/where', message: expect.stringContaining(`this one holds ${limits.maxConditions + 1}`) }],
      });
    });

    it('answers a where binding exactly maxValues values, and 400 VALIDATION_ERROR naming the total for one more', async () => {
      const atEdge = await query('query', inLists(limits.maxValues));
      expect(atEdge.status).toBe(200);
      expect(atEdge.body.items).toEqual([]);
      const past = await query('count', inLists(limits.maxValues + 1));
      expect(past.status).toBe(400);
      expect(past.body.error.details).toEqual([{ path: '/where', message: expect.stringContaining(`this one binds ${limits.maxValues + 1}`) }]);
    }, 30_000);

    it("answers the issue's 40 in-lists of 1,000 values without a 5xx: 400 where they pass the database's limit", async () => {
      const answer = await query('query', inLists(40_000));
      expect(answer.status).toBe(40_000 > limits.maxValues ? 400 : 200);
    }, 30_000);
  });
}
