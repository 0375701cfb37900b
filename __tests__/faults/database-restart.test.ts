// MariaDB and PostgreSQL restarted under write load (docs/production.md): the test starts its own server
// (private data folder and port; the shared servers are never touched), writes through Tessera from
// several clients, stops the database, starts it again, and checks what clients and operators rely on:
// /_health 503 within 1 s of the stop, only 503 (never 500) while it is down, writes succeeding again
// within 5 s of the restart without restarting Tessera, and every acknowledged write still there.
import { openDatabaseAt, type TestDatabase } from '../helpers/databases';
import { startPrivateDatabaseServer, type PrivateDatabaseServer, type ServerDialect } from '../helpers/private-database-server';
import { clearRegistry, defineTestService, listen, type TestServer } from '../helpers/test-app';

const WRITERS = 8;
const LOAD_BEFORE_MS = 1000;
const OUTAGE_MS = 2000;
const LOAD_AFTER_MS = 1000;
/** No writer waits longer than this for one answer (a stuck request fails the test instead of hanging it). */
const REQUEST_TIMEOUT_MS = 10_000;
/** The bounds the issue sets. */
const HEALTH_DOWN_WITHIN_MS = 1000;
const RECOVERY_WITHIN_MS = 5000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Observation {
  at: number;
  status: number;
}

/** Writes notes through Tessera until stopped; each answer is recorded, each 201 as acknowledged. */
class WriteLoad {
  readonly answers: Observation[] = [];
  readonly acknowledged: string[] = [];
  readonly failures: string[] = [];
  #running = true;
  #loops: Promise<void>[] = [];

  constructor(private readonly server: TestServer) {}

  start(): void {
    for (let writer = 0; writer < WRITERS; writer++) this.#loops.push(this.#loop(writer));
  }

  async #loop(writer: number): Promise<void> {
    for (let sequence = 0; this.#running; sequence++) {
      const title = `w${writer}-${sequence}`;
      try {
        const response = await this.server.fetch('/api/notes', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ title }),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        const text = await response.text();
        this.answers.push({ at: Date.now(), status: response.status });
        if (response.status === 201) this.acknowledged.push(title);
        else if (response.status !== 503) this.failures.push(`${response.status} ${text.slice(0, 200)}`);
        else if (response.headers.get('retry-after') !== '1') this.failures.push('a 503 without Retry-After: 1');
        // A client backs off a little on 503, as Retry-After asks (shortened: the test measures recovery).
        if (response.status === 503) await sleep(20);
      } catch (error) {
        this.failures.push(`no answer: ${(error as Error).message}`);
        await sleep(20);
      }
    }
  }

  async stop(): Promise<void> {
    this.#running = false;
    await Promise.all(this.#loops);
  }
}

/** Polls /_health every 25 ms. */
class HealthWatch {
  readonly observations: Observation[] = [];
  #running = true;
  #loop: Promise<void>;

  constructor(server: TestServer) {
    this.#loop = (async () => {
      while (this.#running) {
        try {
          const response = await server.fetch('/_health', { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
          await response.text();
          this.observations.push({ at: Date.now(), status: response.status });
        } catch {
          this.observations.push({ at: Date.now(), status: 0 });
        }
        await sleep(25);
      }
    })();
  }

  async stop(): Promise<void> {
    this.#running = false;
    await this.#loop;
  }
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await sleep(10);
}

describe.each<ServerDialect>(['mysql', 'postgres'])('a %s restart under write load', (dialect) => {
  let databaseServer: PrivateDatabaseServer;
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    databaseServer = await startPrivateDatabaseServer(dialect);
    database = openDatabaseAt(dialect, databaseServer.url);
    await database.reset();
    clearRegistry();
    const service = defineTestService(database);
    server = await listen({ services: [service.shop], errorLogger: false });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await database?.close().catch(() => undefined);
    await databaseServer?.destroy();
    clearRegistry();
  }, 60_000);

  it('answers 503 during the outage, recovers on its own after the restart and loses no acknowledged write', async () => {
    const load = new WriteLoad(server);
    const health = new HealthWatch(server);
    load.start();
    await sleep(LOAD_BEFORE_MS);

    const stoppedAt = Date.now();
    await databaseServer.stop();
    const downAt = Date.now(); // the server process has exited
    await sleep(OUTAGE_MS);
    const startingAt = Date.now();
    await databaseServer.start();
    const restartedAt = Date.now(); // it accepts connections again

    const firstWriteAfter = () => load.answers.find((answer) => answer.at >= restartedAt && answer.status === 201);
    await waitFor(() => firstWriteAfter() !== undefined, RECOVERY_WITHIN_MS * 2);
    await sleep(LOAD_AFTER_MS);
    await load.stop();
    await health.stop();

    const firstHealthDown = health.observations.find((observation) => observation.at >= stoppedAt && observation.status === 503);
    const healthBackAt = health.observations.find((observation) => observation.at >= restartedAt && observation.status === 200);
    const duringOutage = load.answers.filter((answer) => answer.at > downAt && answer.at < startingAt);
    const figures = {
      answers: load.answers.length,
      acknowledged: load.acknowledged.length,
      unavailable: load.answers.filter((answer) => answer.status === 503).length,
      healthDownMs: firstHealthDown === undefined ? null : firstHealthDown.at - stoppedAt,
      writesBackMs: (firstWriteAfter()?.at ?? NaN) - restartedAt,
      healthBackMs: healthBackAt === undefined ? null : healthBackAt.at - restartedAt,
    };
    console.log(`${dialect} restart under ${WRITERS} writers: ${JSON.stringify(figures)}`);

    expect(load.failures).toEqual([]);
    expect(health.observations.filter((observation) => observation.status !== 200 && observation.status !== 503)).toEqual([]);
    expect(duringOutage.length).toBeGreaterThan(0);
    expect(duringOutage.every((answer) => answer.status === 503)).toBe(true);
    expect(figures.healthDownMs).not.toBeNull();
    expect(figures.healthDownMs!).toBeLessThanOrEqual(HEALTH_DOWN_WITHIN_MS);
    expect(figures.writesBackMs).toBeLessThanOrEqual(RECOVERY_WITHIN_MS);
    expect(figures.healthBackMs).not.toBeNull();

    // Every write that was answered 201 is in the table.
    const stored = new Set(((await database.raw('SELECT title FROM t_notes')) as { title: string }[]).map((row) => row.title));
    const lost = load.acknowledged.filter((title) => !stored.has(title));
    expect(lost).toEqual([]);
  }, 60_000);
});
