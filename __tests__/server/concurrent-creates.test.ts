// Concurrent creates with the same unique key (docs/production.md): exactly one 201, every other one
// 409 CONFLICT, none 5xx, on every database and in the generic and compiled handler modes. On MariaDB and
// PostgreSQL the 32 requests run on a pool of connections, so the database decides the race.
import { DIALECTS, openDatabase, type TestDatabase } from '../helpers/databases';
import { ALICE, clearRegistry, defineTestService, listen, type TestServer } from '../helpers/test-app';

const CONCURRENT = 32;

describe.each(DIALECTS)('%s', (dialect) => {
  let database: TestDatabase;
  const servers: Partial<Record<'generic' | 'compiled', TestServer>> = {};

  beforeAll(async () => {
    database = await openDatabase(dialect, 'concurrency');
    clearRegistry();
    const service = defineTestService(database);
    servers.generic = await listen({ services: [service.shop] }, { mode: 'generic' });
    servers.compiled = await listen({ services: [service.shop] }, { mode: 'compiled' });
  });
  beforeEach(() => database.reset());
  afterAll(async () => {
    for (const server of Object.values(servers)) await server.close();
    await database.close();
    clearRegistry();
  });

  it.each(['generic', 'compiled'] as const)('%s handlers: 32 concurrent creates of one unique name give one 201 and 31 409 CONFLICT', async (mode) => {
    const server = servers[mode]!;
    const answers = await Promise.all(
      Array.from({ length: CONCURRENT }, async (_, index) => {
        const response = await server.fetch('/api/items', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-test-user': JSON.stringify({ user: ALICE }) },
          body: JSON.stringify({ name: 'the one', price: index }),
        });
        return { status: response.status, body: (await response.json()) as any };
      }),
    );
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, ...Array(CONCURRENT - 1).fill(409)]);
    for (const answer of answers.filter((each) => each.status === 409)) {
      expect(answer.body).toEqual({ error: { code: 'CONFLICT', message: 'A row with the same unique value already exists' } });
    }
    const winner = answers.find((answer) => answer.status === 201)!.body;
    expect(await database.raw("SELECT price FROM t_items WHERE name = 'the one'")).toEqual([{ price: winner.price }]);
  });
});
