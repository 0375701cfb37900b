// The per-test set-up the server suites share, so each suite does not repeat it: a fresh registry, the test service over an in-memory SQLite database, and servers and extra databases closed after each test.
import type { ServerOptions } from 'tessera-api';
import { openDatabase, type TestDatabase } from './databases';
import { clearRegistry, defineTestService, listen, type RunningServer, type TestService } from './test-app';

export interface ServerTestbed {
  /** The test service's database, opened and reset before each test. */
  database: TestDatabase;
  /** The test service, defined over `database` before each test. */
  service: TestService;
  /** Starts a server (test-app's `listen`) that is closed after the test; closing it earlier is harmless. */
  start(options?: ServerOptions): Promise<RunningServer>;
  /** Opens another reset in-memory SQLite database that is closed after the test. */
  openDatabase(): Promise<TestDatabase>;
}

/** Registers the beforeEach/afterEach of a server suite; read `database` and `service` inside tests, once beforeEach has run. */
export function useServerTestbed(): ServerTestbed {
  const servers: RunningServer[] = [];
  const databases: TestDatabase[] = [];

  const testbed: ServerTestbed = {
    database: undefined as unknown as TestDatabase,
    service: undefined as unknown as TestService,
    async start(options = {}) {
      const server = await listen(options);
      servers.push(server);
      return server;
    },
    async openDatabase() {
      const opened = await openDatabase('sqlite');
      databases.push(opened);
      await opened.reset();
      return opened;
    },
  };

  beforeEach(async () => {
    clearRegistry();
    testbed.database = await testbed.openDatabase();
    testbed.service = defineTestService(testbed.database);
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
    for (const opened of databases.splice(0)) await opened.close();
    clearRegistry();
  });

  return testbed;
}
