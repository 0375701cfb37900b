// Issue 32, finding 5: what the lint-clean document states is what the server does. 401 names its scheme
// (WWW-Authenticate), error bodies stay within their documented bounds, text without a declared length has
// the documented default bound, `license` and `contact` reach `info` (and a mistake in them is a SetupError),
// and an `{id}` example looks like the keys it stands for.
import { buildOpenApiDocument, createServer, defineService, crud, TesseraError } from 'tessera-api';
import { blog } from '../../fixtures/blog/app';
import { component } from '../helpers/openapi-reader';
import { request } from '../helpers/request';
import { useServerTestbed } from '../helpers/server-testbed';

const DEFAULT_MAX_LENGTH = 1_048_576;

describe('issue 32: the document tells the truth the linters ask for', () => {
  const testbed = useServerTestbed();

  // The error middleware answers for every handler mode alike.
  for (const compiler of [false, true]) {
    it(`answers 401 with WWW-Authenticate: Bearer (compiler: ${compiler})`, async () => {
      const server = await testbed.start({ compiler });
      const answer = await fetch(`${server.url}/api/notes/query`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-test-user': 'bad' }, body: '{}' });
      expect(answer.status).toBe(401);
      expect(answer.headers.get('www-authenticate')).toBe('Bearer');
      expect(await answer.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: 'bad credentials' } });
    });
  }

  it('cuts an error text that quotes a long input, and keeps at most 100 details', async () => {
    testbed.service.shop.action('explain', {
      handler: () => {
        throw new TesseraError('VALIDATION_ERROR', 'many', Array.from({ length: 150 }, (_, index) => ({ path: `/items/${index}`, message: 'wrong' })));
      },
    });
    const server = await testbed.start();
    const key = 'k'.repeat(10_000);
    const answer = await request(`${server.url}/api/notes/query`, { method: 'POST', body: { [key]: 1 } });
    expect(answer.status).toBe(400);
    const { message, details } = answer.body.error;
    expect(message).toHaveLength(4096);
    expect(message.endsWith('…')).toBe(true);
    expect(details[0].path).toHaveLength(4096);
    const many = await request(`${server.url}/api/shop/explain`, { method: 'POST', body: {} });
    expect(many.body.error.details).toHaveLength(100);
    expect(many.body.error.details[99]).toEqual({ path: '/items/99', message: 'wrong' });
  });

  it('bounds text without a declared length at 1 Mi characters, in the document and in validation', async () => {
    const document = buildOpenApiDocument({ services: [testbed.service.shop], prefix: '/api', title: 'Shop', version: '1.0.0' });
    expect(component(document, 'shop.notes.CreateInput').properties.title).toEqual({ type: 'string', maxLength: DEFAULT_MAX_LENGTH });
    // A pattern carries no U+0000 (SQLite's LIKE would end there), on every database.
    expect(component(document, 'shop.notes.Condition.title').properties.contains).toEqual({ type: 'string', maxLength: DEFAULT_MAX_LENGTH, pattern: '^[^\\u0000]*$', description: expect.any(String) });
    // Under the default bodyLimit the body is refused first; with a larger one, the bound answers.
    const server = await testbed.start({ bodyLimit: '4mb' });
    const tooLong = await request(`${server.url}/api/notes`, { method: 'POST', body: { title: 'x'.repeat(DEFAULT_MAX_LENGTH + 1) } });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: '/title', message: expect.stringContaining(String(DEFAULT_MAX_LENGTH)) }] });
    expect((await request(`${server.url}/api/notes`, { method: 'POST', body: { title: 'x'.repeat(DEFAULT_MAX_LENGTH) } })).status).toBe(201);
  });

  it('publishes license and contact in info, and refuses a malformed one at construction', () => {
    const options = { license: { name: 'MIT', identifier: 'MIT' }, contact: { name: 'Team', email: 'team@example.com' } };
    expect(buildOpenApiDocument({ services: [testbed.service.shop], prefix: '/api', title: 'Shop', version: '1.0.0', ...options }).info).toEqual({ title: 'Shop', version: '1.0.0', ...options });
    const cases: [what: string, option: object, message: RegExp][] = [
      ['a license without a name', { license: { identifier: 'MIT' } }, /license\.name is required/],
      ['both an identifier and a url', { license: { name: 'MIT', identifier: 'MIT', url: 'https://example.com/' } }, /license takes an SPDX identifier or a url, not both/],
      ['an unknown license field', { license: { name: 'MIT', id: 'MIT' } }, /license\.id is not a field of license/],
      ['a relative url', { contact: { url: '/support' } }, /contact\.url must be an absolute URL/],
      ['an email that is not one', { contact: { email: 'nobody' } }, /contact\.email must be an email address/],
      ['an empty contact', { contact: {} }, /contact needs a name, url or email/],
    ];
    // Checked even without a document to serve (docs: false), like `security`.
    for (const [, option, message] of cases) expect(() => createServer({ services: [testbed.service.shop], requestLogging: false, docs: false, ...option })).toThrow(message);
  });

  it('gives {id} an example like the keys: a UUID for keys filled with UUIDs, the created value for keys the caller chooses', async () => {
    const document = buildOpenApiDocument({ services: [blog], prefix: '/api', title: 'Blog', version: '1.0.0' });
    for (const path of ['/api/notes/{id}', '/api/tasks/{id}']) {
      const id = (document.paths[path] as any).get.parameters[0];
      expect([path, id.example]).toEqual([path, expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)]);
    }
    const shop = defineService({ name: 'codes', db: testbed.database.db });
    const { counters } = testbed.database.tables;
    shop.resource({ name: 'counters', table: counters, id: counters.code }).use(crud({ access: 'public', fields: { code: { read: true, create: true }, n: { read: true, create: true } } }));
    const codes = buildOpenApiDocument({ services: [shop], prefix: '/api', title: 'Codes', version: '1.0.0' });
    const created = (codes.paths['/api/counters'] as any).post.requestBody.content['application/json'].examples.row.value;
    expect((codes.paths['/api/counters/{id}'] as any).get.parameters[0].example).toBe(created.code);
  });
});
