// The set-up every crud suite shares: its own database connection, the test service and a server on port 0,
// fresh tables before each test, and one describe block per client, so each case runs over HTTP and in-process.
import type { ServerOptions } from 'tessera';
import { openDatabase, type DialectName, type TestDatabase } from './databases';
import { clearRegistry, defineTestService, httpClient, inProcessClient, listen, type Client, type Mode, type RunningServer, type TestService } from './test-app';

/** A well-formed uuid that names no row. */
export const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

/** What a suite works with. Filled in beforeAll: read it inside hooks and tests, never at describe time. */
export interface SuiteFixture {
  readonly dialect: DialectName;
  database: TestDatabase;
  service: TestService;
  server: RunningServer;
}

/** Registers the suite's beforeAll / afterAll / beforeEach; `serverOptions` go to the test server as is. */
export function useSuiteFixture(dialect: DialectName, serverOptions: Omit<ServerOptions, 'services'> = {}): SuiteFixture {
  const fixture = { dialect } as SuiteFixture; // database, service and server arrive in beforeAll

  beforeAll(async () => {
    fixture.database = await openDatabase(dialect);
    clearRegistry();
    fixture.service = defineTestService(fixture.database);
    fixture.server = await listen({ services: [fixture.service.shop], ...serverOptions });
  });
  afterAll(async () => {
    await fixture.server?.close();
    await fixture.database?.close();
    clearRegistry();
  });
  beforeEach(async () => {
    await fixture.database.reset();
    fixture.service.hookLog.calls.length = 0;
    fixture.service.accessLog.calls.length = 0;
  });

  return fixture;
}

const MODE_TITLES: Record<Mode, string> = { http: 'over HTTP', 'in-process': 'in-process' };

/** Declares `body` once per client mode, in its own describe; the client reaches the fixture when a test calls it. */
export function forEachClient(fixture: SuiteFixture, body: (client: Client) => void): void {
  for (const mode of ['http', 'in-process'] as const) {
    describe(MODE_TITLES[mode], () => {
      body({
        mode,
        call: (...args) => (mode === 'http' ? httpClient(fixture.server.url) : inProcessClient(fixture.service)).call(...args),
      });
    });
  }
}

/** Creates notes through `client`, each given as a title or [title, content], and answers the created rows. */
export async function createNotes(client: Client, ...titles: (string | [string, string | null])[]): Promise<any[]> {
  const created = [];
  for (const entry of titles) {
    const [title, content] = Array.isArray(entry) ? entry : [entry, null];
    const answer = await client.call('notes', 'create', { title, content });
    expect(answer.status).toBe(201);
    created.push(answer.body);
  }
  return created;
}

/** Writes one note in-process, whatever client the test is about. */
export async function seedNote(fixture: SuiteFixture, title: string, content: string | null = null): Promise<{ id: string }> {
  return (await fixture.service.notes.create({ input: { title, content } })) as { id: string };
}
