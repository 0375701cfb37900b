// The OpenAPI document against a real server on postgres, in a namespace of its own (the crud suites run in
// parallel on the same tables): the test application's documented examples and refusals.
import { openIsolatedDatabase } from '../helpers/isolated-database';
import { ADMIN, clearRegistry, defineTestService, listen } from '../helpers/test-app';
import { openApiConformanceSuite } from '../suites/openapi-conformance.suite';

describe('the OpenAPI document of the test application on postgres', () => {
  openApiConformanceSuite({
    async start() {
      const database = await openIsolatedDatabase('postgres', 'openapi');
      await database.reset();
      clearRegistry();
      const service = defineTestService(database);
      const server = await listen({ services: [service.shop] });
      return { url: server.url, close: async () => (await server.close(), await database.close()) };
    },
    headers: { 'x-test-user': JSON.stringify({ user: ADMIN }) },
    alwaysForbidden: ['shop.categories'], // access: {} has no authorize (spec §5.1 rule 4)
  });
});
