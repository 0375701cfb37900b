// The OpenAPI document against real servers on SQLite: the test application and the blog fixture.
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { createServer } from 'tessera-api';
import blogOptions, { blog } from '../../fixtures/blog/app';
import { demoToken } from '../../fixtures/blog/demo-token';
import { openApiConformanceSuite, testAppConformanceSuite } from '../suites/openapi-conformance.suite';

/** Listens on a free port with an Express application built by the test (the blog keeps its own auth). */
async function listenApp(app: Express): Promise<{ url: string; close(): Promise<void> }> {
  const server = await new Promise<ReturnType<Express['listen']>>((resolve) => {
    const started = app.listen(0, '127.0.0.1', () => resolve(started));
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

testAppConformanceSuite('sqlite');

describe('the OpenAPI document of fixtures/blog', () => {
  /** An admin's token, minted before the suite's first request. */
  const headers: Record<string, string> = {};
  beforeAll(async () => {
    headers.authorization = `Bearer ${await demoToken('admin')}`;
  });
  openApiConformanceSuite({
    // The blog's own auth (JSON Web Tokens); its other options (docs pages) are not under test here.
    start: () => listenApp(createServer({ auth: blogOptions.auth, services: [blog], requestLogging: false })),
    headers,
    alwaysForbidden: [],
  });
});
