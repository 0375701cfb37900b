// CONTRACT §5 and §9: a public resource whose include or relation filter reaches a resource with access rules can
// answer 403 (the related authorize refuses), so its operations document 403; the live server answers exactly that.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { clearRegistry, createServer } from 'tessera-api';
import { request } from '../../helpers/request';
import { validateOpenApi } from '../../helpers/openapi-validator';

const OPERATIONS = ['get', 'post', 'patch', 'put', 'delete'] as const;

describe('the error statuses of a public resource with relations', () => {
  let server: Server;
  let url: string;
  let statuses: Map<string, string[]>;
  let document: any;

  beforeAll(async () => {
    clearRegistry();
    // The entry registers its service when it loads, as `tessera start` loads it.
    const options = (await import('../../bin/entries/bundle-relations')).default;
    server = createServer(options).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    document = (await request(`${url}/openapi.json`)).body;
    statuses = new Map();
    for (const item of Object.values(document.paths) as any[]) {
      for (const method of OPERATIONS) if (item[method] !== undefined) statuses.set(item[method].operationId, Object.keys(item[method].responses));
    }
  });

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    clearRegistry();
  });

  it('documents 403 on every operation whose include or relation filter reaches a resource with access rules', () => {
    for (const operation of ['posts.list', 'posts.findOne', 'posts.get', 'posts.count', 'posts.exists', 'comments.list', 'comments.findOne', 'comments.count']) {
      expect([operation, statuses.get(`blog.${operation}`)]).toEqual([operation, expect.arrayContaining(['403'])]);
    }
  });

  it('documents no 403 where nothing the input can name reaches such a resource', () => {
    // comments.get includes only `post` (?include= names direct relations), a public resource; writes take no relation.
    for (const operation of ['comments.get', 'posts.create', 'posts.update', 'posts.delete', 'posts.upsert']) {
      expect([operation, statuses.get(`blog.${operation}`)]).toEqual([operation, expect.not.arrayContaining(['403'])]);
    }
  });

  it('stays a valid OpenAPI 3.1 document', async () => {
    expect(await validateOpenApi(document)).toEqual(expect.objectContaining({ valid: true }));
  });

  it.each([
    ['posts.list with include', 'POST', '/api/posts/query', { include: { author: true } }],
    ['posts.count with a relation filter', 'POST', '/api/posts/count', { where: { author: { is: { name: { eq: 'Alice' } } } } }],
    ['posts.get?include=author', 'GET', '/api/posts/1?include=author', undefined],
    ['comments.list with a nested include', 'POST', '/api/comments/query', { include: { post: { include: { author: true } } } }],
  ])('answers the documented 403 FORBIDDEN for %s', async (_name, method, path, body) => {
    const answer = await request(url + path, { method, body });
    expect(answer.status).toBe(403);
    expect(answer.body.error).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('relation `author`') });
  });
});
