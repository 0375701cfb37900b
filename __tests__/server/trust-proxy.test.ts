// `trustProxy` (docs/production.md, behind a load balancer): with the balancer trusted, each caller's address comes
// from X-Forwarded-For, so `rateLimit` by IP gives each caller its own budget; without it every caller is the
// balancer and shares one. A value Express cannot read is a SetupError naming the option.
import type { ServerOptions } from 'tessera-api';
import { openDatabase, type TestDatabase } from '../helpers/databases';
import { clearRegistry, defineTestService, listen, type TestServer, type TestService } from '../helpers/test-app';

describe('trustProxy', () => {
  let database: TestDatabase;
  let service: TestService;
  const servers: TestServer[] = [];

  beforeAll(async () => {
    clearRegistry();
    database = await openDatabase('sqlite');
    await database.reset();
    service = defineTestService(database);
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });
  afterAll(async () => {
    await database.close();
    clearRegistry();
  });

  async function statusesOf(options: Omit<ServerOptions, 'services'>, callers: string[]): Promise<number[]> {
    const server = await listen({ services: [service.shop], rateLimit: { points: 1, duration: 60 }, ...options });
    servers.push(server);
    const statuses = [];
    for (const caller of callers) {
      const response = await server.fetch('/api/shop/ping', { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': caller }, body: '{}' });
      await response.text();
      statuses.push(response.status);
    }
    return statuses;
  }

  it("gives each caller behind a trusted proxy its own budget, by the address the proxy forwards", async () => {
    expect(await statusesOf({ trustProxy: 'loopback' }, ['203.0.113.7', '203.0.113.7', '198.51.100.9'])).toEqual([200, 429, 200]);
    expect(await statusesOf({ trustProxy: 1 }, ['203.0.113.8', '198.51.100.10'])).toEqual([200, 200]);
  });

  it('counts every caller as the proxy without it (X-Forwarded-For is not believed)', async () => {
    expect(await statusesOf({}, ['203.0.113.11', '198.51.100.12'])).toEqual([200, 429]);
  });

  it('refuses a value that names no proxies, naming the option', async () => {
    for (const trustProxy of ['not an address', -1, 1.5, [], ['10.0.0.0/8', ''], { hops: 1 }]) {
      await expect(listen({ services: [service.shop], trustProxy: trustProxy as never })).rejects.toThrow(/^trustProxy/);
    }
  });
});
