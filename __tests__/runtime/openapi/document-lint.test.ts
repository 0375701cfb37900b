// The OpenAPI document as API linters read it (issue 32): the blog fixture's document, and one using every
// option that changes the document, served by real servers, linted by Redocly CLI (recommended) and Spectral
// (spectral:oas) with no error and no warning, and by the Spectral OWASP ruleset with no error once the edge
// options (rate limit, CORS) are on. The linters run at the exact versions package.json pins.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createServer, type ServerOptions } from 'tessera-api';
import blogOptions, { blog } from '../../../fixtures/blog/app';
import { LINT_TIMEOUT_MS, redoclyLint, spectralLint, withDocumentFile, type LintFinding } from '../../helpers/api-linters';
import { REPO_ROOT } from '../../helpers/bundles';
import { defineLintApp, type LintApp } from '../../helpers/lint-app';

/**
 * Two OWASP rules ask every documented answer for headers that only the edge options send: RateLimit headers
 * (`rateLimit`) and Access-Control-Allow-Origin (`cors`). Without those options the document does not claim the
 * headers, and exactly these two rules report it.
 */
const EDGE_RULES = ['owasp:api4:2023-rate-limit', 'owasp:api8:2023-define-cors-origin'];

/** The edge options a production deployment of the blog adds (docs/production.md). */
const EDGE_OPTIONS: ServerOptions = { rateLimit: { points: 100, duration: 60 }, cors: { origin: 'https://app.example.com' } };

async function servedDocument(options: ServerOptions, documentPath = '/openapi.json'): Promise<unknown> {
  const app = createServer({ requestLogging: false, ...options });
  const server: Server = await new Promise((resolve) => {
    const started = app.listen(0, '127.0.0.1', () => resolve(started));
  });
  try {
    const response = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}${documentPath}`);
    expect(response.status).toBe(200);
    return await response.json();
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

/** What each linter finds in a document. */
async function lintAll(document: unknown): Promise<{ redocly: LintFinding[]; oas: LintFinding[]; owasp: LintFinding[] }> {
  return withDocumentFile(document, async (file) => {
    const [redocly, oas, owasp] = await Promise.all([redoclyLint(file), spectralLint(file, 'spectral-oas'), spectralLint(file, 'spectral-owasp')]);
    return { redocly, oas, owasp };
  });
}

const described = (findings: readonly LintFinding[]): string[] => findings.map(({ severity, rule, path }) => `${severity} ${rule} at ${path}`);

function expectLintClean(findings: { redocly: LintFinding[]; oas: LintFinding[]; owasp: LintFinding[] }): void {
  expect(described(findings.redocly)).toEqual([]);
  expect(described(findings.oas)).toEqual([]);
  expect(described(findings.owasp.filter((finding) => finding.severity === 'error'))).toEqual([]);
}

describe('the OpenAPI document under API linters', () => {
  it('pins the linters to exact versions', () => {
    const { devDependencies } = require(`${REPO_ROOT}/package.json`) as { devDependencies: Record<string, string> };
    for (const name of ['@redocly/cli', '@stoplight/spectral-cli', '@stoplight/spectral-owasp-ruleset']) expect([name, devDependencies[name]]).toEqual([name, expect.stringMatching(/^\d+\.\d+\.\d+$/)]);
  });

  it(
    "lints clean: the blog fixture's document, with the edge options of a deployment",
    async () => {
      // Its other options (the reference page and its Docs folder) serve pages, not the document.
      const blogDocument = { ...blogOptions, reference: false, documentation: undefined, services: [blog] };
      expectLintClean(await lintAll(await servedDocument({ ...blogDocument, ...EDGE_OPTIONS })));
      // Without them, only the two edge rules find something: the headers are not claimed where they are not sent.
      const { owasp } = await lintAll(await servedDocument(blogDocument));
      const rules = [...new Set(owasp.filter((finding) => finding.severity === 'error').map((finding) => finding.rule))].sort();
      expect(rules).toEqual(EDGE_RULES);
    },
    2 * LINT_TIMEOUT_MS,
  );

  describe('a document with every option that changes it', () => {
    let app: LintApp;
    beforeAll(() => {
      app = defineLintApp();
    });
    afterAll(() => app.close());

    it(
      'lints clean',
      async () => {
        expectLintClean(await lintAll(await servedDocument({ ...app.options, ...EDGE_OPTIONS }, '/spec.json')));
      },
      LINT_TIMEOUT_MS,
    );
  });
});
