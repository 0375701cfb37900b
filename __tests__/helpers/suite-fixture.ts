// The set-up every crud suite shares: its own database connection, the test service and a server on port 0
// in the run's handler mode, fresh tables before each test, and one describe block per client, so each case
// runs over HTTP in every handler mode and in-process once.
import type { ServerOptions } from 'tessera-api';
import { openDatabase, type DialectName, type TestDatabase } from './databases';
import type { BuiltBundle } from './bundle-loader';
import type { ResponseRecording } from './response-recording';
import { clearRegistry, defineTestService, httpClient, inProcessClient, listen, type Client, type HandlerMode, type Mode, type TestServer, type TestService } from './test-app';

/** A well-formed uuid that names no row. */
export const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

/** One cell of the parity matrix: the database, the handler mode, and where the run's HTTP responses are recorded. */
export interface SuiteRun {
  readonly dialect: DialectName;
  readonly mode: HandlerMode;
  readonly recording: ResponseRecording;
  /** Bundle mode: the run's one build, which every suite's server starts. */
  readonly bundle: BuiltBundle | null;
}

/** What a suite works with. `dialect` and `mode` are known at describe time; the rest is filled in beforeAll. */
export interface SuiteFixture {
  readonly dialect: DialectName;
  readonly mode: HandlerMode;
  database: TestDatabase;
  service: TestService;
  server: TestServer;
  /** Starts another server over the test service in the run's mode, recording into the run's recording; the caller closes it. */
  listen(serverOptions: Omit<ServerOptions, 'services'>): Promise<TestServer>;
}

/** Registers the suite's beforeAll / afterAll / beforeEach; `serverOptions` go to the test server as is. */
export function useSuiteFixture(run: SuiteRun, serverOptions: Omit<ServerOptions, 'services'> = {}): SuiteFixture {
  const { dialect, mode, recording } = run;
  const fixture = {
    dialect,
    mode,
    listen: (options) => listen({ services: [fixture.service.shop], ...options }, { mode, recording, bundle: run.bundle ?? undefined }),
  } as SuiteFixture; // database, service and server arrive in beforeAll

  beforeAll(async () => {
    fixture.database = await openDatabase(dialect);
    clearRegistry();
    fixture.service = defineTestService(fixture.database);
    fixture.server = await fixture.listen(serverOptions);
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

/**
 * Declares `body` once per client mode, in its own describe; the client reaches the fixture when a test calls it.
 * In-process calls never reach an HTTP handler, so they run once, in the generic handler's run.
 */
export function forEachClient(fixture: SuiteFixture, body: (client: Client) => void): void {
  const modes: Mode[] = fixture.mode === 'generic' ? ['http', 'in-process'] : ['http'];
  for (const mode of modes) {
    describe(MODE_TITLES[mode], () => {
      body({
        mode,
        call: (...args) => (mode === 'http' ? httpClient(fixture.server) : inProcessClient(fixture.service)).call(...args),
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
