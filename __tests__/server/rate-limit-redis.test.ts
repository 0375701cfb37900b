// The `rateLimit` option counted in Redis, in every handler mode: two replicas share one budget per caller; an
// ioredis client of the application's works as well as a URL; and when Redis goes away calls pass unlimited
// (fail open), with one log line a minute and never a 500, until Redis answers again. Stopping Redis uses a private
// redis-server on a free port; the shared one (127.0.0.1:6379) only ever sees keys under a prefix unique to a test.
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import type { ServerOptions } from 'tessera-api';
import { BuiltBundle } from '../helpers/bundle-loader';
import { openDatabase, type TestDatabase } from '../helpers/databases';
import { freePort } from '../helpers/free-port';
import { PrivateRedisServer } from '../helpers/private-redis-server';
import { clearRegistry, defineTestService, HANDLER_MODES, listen, type TestServer, type TestService } from '../helpers/test-app';

const SHARED_REDIS = 'redis://127.0.0.1:6379';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function ping(server: TestServer): Promise<{ status: number; rateLimit: string | null }> {
  const response = await server.fetch('/api/shop/ping', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
  await response.text();
  return { status: response.status, rateLimit: response.headers.get('ratelimit') };
}

describe('rateLimit in Redis', () => {
  let database: TestDatabase;
  let service: TestService;
  const bundle = new BuiltBundle();
  const servers: TestServer[] = [];

  beforeAll(async () => {
    clearRegistry();
    database = await openDatabase('sqlite');
    await database.reset();
    service = defineTestService(database);
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      await server.app.close({ closeDatabases: false }); // disconnects the rate limit's Redis client
      await server.close();
    }
  });
  afterAll(async () => {
    bundle.remove();
    await database.close();
    clearRegistry();
  });

  describe.each(HANDLER_MODES)('%s handlers', (mode) => {
    async function start(options: Omit<ServerOptions, 'services'>): Promise<TestServer> {
      const server = await listen({ services: [service.shop], ...options }, { mode, bundle });
      servers.push(server);
      return server;
    }

    it('holds one budget per caller across two replicas', async () => {
      const rateLimit = { points: 4, duration: 60, redis: SHARED_REDIS, keyPrefix: `tessera-test:${randomUUID()}` };
      const first = await start({ rateLimit });
      const second = await start({ rateLimit });
      const answers = [await ping(first), await ping(second), await ping(first), await ping(second), await ping(first), await ping(second)];
      expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 429, 429]);
      expect(answers.slice(0, 4).map((answer) => /;r=(\d+);/.exec(answer.rateLimit!)![1])).toEqual(['3', '2', '1', '0']);
      // Another prefix is another budget.
      const elsewhere = await start({ rateLimit: { ...rateLimit, keyPrefix: `tessera-test:${randomUUID()}` } });
      expect((await ping(elsewhere)).status).toBe(200);
    });
  });

  it('takes an ioredis client of the application\'s, and leaves it open on close', async () => {
    const client = new Redis(SHARED_REDIS);
    try {
      const keyPrefix = `tessera-test:${randomUUID()}`;
      const server = await listen({ services: [service.shop], rateLimit: { points: 1, duration: 60, redis: client, keyPrefix } });
      servers.push(server);
      expect((await ping(server)).status).toBe(200);
      expect((await ping(server)).status).toBe(429);
      expect((await client.keys(`${keyPrefix}*`)).length).toBe(1);
      await server.app.close({ closeDatabases: false });
      expect(await client.ping()).toBe('PONG');
    } finally {
      client.disconnect();
    }
  });

  describe('when Redis goes away (fail open)', () => {
    const redis = new PrivateRedisServer();
    afterAll(() => redis.stop());

    it('lets calls through without a limit, logs one line for all of them, never answers 500, and counts again once Redis is back', async () => {
      await redis.start();
      const errors: string[] = [];
      const server = await listen({ services: [service.shop], errorLogger: (line) => void errors.push(line), rateLimit: { points: 100, duration: 60, redis: redis.url } });
      servers.push(server);
      expect(await ping(server)).toEqual({ status: 200, rateLimit: expect.stringMatching(/^"default";r=99;/) });

      await redis.stop();
      const whileDown = [];
      for (let index = 0; index < 20; index++) whileDown.push(await ping(server));
      expect(whileDown).toEqual(Array.from({ length: 20 }, () => ({ status: 200, rateLimit: null })));
      expect(errors).toEqual([expect.stringMatching(/^RATE_LIMIT_STORE_UNAVAILABLE: \S.*; calls pass without a rate limit until the store answers \(logged once a minute\)$/)]);

      await redis.start();
      let answer = await ping(server);
      for (let tries = 0; answer.rateLimit === null && tries < 200; tries++) {
        await sleep(100); // ioredis reconnects with a backoff of its own
        answer = await ping(server);
      }
      // A fresh Redis (no persistence): the budget starts over.
      expect(answer).toEqual({ status: 200, rateLimit: expect.stringMatching(/^"default";r=99;/) });
      expect(errors).toHaveLength(1);
    });

    it('lets calls through when Redis cannot be reached from the start', async () => {
      const errors: string[] = [];
      const server = await listen({ services: [service.shop], errorLogger: (line) => void errors.push(line), rateLimit: { points: 1, duration: 60, redis: `redis://127.0.0.1:${await freePort()}` } });
      servers.push(server);
      await sleep(200); // ioredis's first attempt fails at once: nothing listens
      const started = Date.now();
      for (let index = 0; index < 5; index++) expect(await ping(server)).toEqual({ status: 200, rateLimit: null });
      expect(errors).toHaveLength(1);
      // No call waits for a Redis that never came (each waited the 500 ms command timeout before).
      expect(Date.now() - started).toBeLessThan(1500);
    });
  });
});
