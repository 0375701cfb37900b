// The bundle's client.ts sends every input its routes take (CONTRACT §9, §10): get's include as `?include=`, ifMatch
// as If-Match on update, delete and upsert, ifNoneMatch as If-None-Match on get, and etagOf reads a row's ETag.
import fs from 'node:fs';
import path from 'node:path';
import { build, startBundle, temporaryFolder } from '../helpers/bundles';
import { typeCheckClient } from '../helpers/client-tsc';
import { freePort } from '../helpers/free-port';
import type { RunningCli } from '../helpers/spawn-cli';

/** Typed use; the @ts-expect-error lines fail the compile if the types stop refusing them. */
const USAGE = `import { createClient, etagOf, TesseraClientError } from './client';

export async function use(): Promise<string> {
  const api = createClient({ baseUrl: 'http://localhost:4000' });
  const post = await api.blog.posts.get({ id: 1, include: { comments: true, author: true } });
  const etag: string | undefined = etagOf(post);
  await api.blog.posts.update({ id: 1, data: { title: 'x' }, ifMatch: etag });
  await api.blog.posts.upsert({ id: 1, data: { authorId: 1, title: 'x' }, ifMatch: '*' });
  await api.blog.posts.delete({ id: 1, ifMatch: '"a"' });
  await api.blog.posts.get({ id: 1, ifNoneMatch: '"a"' }).catch((error) => error instanceof TesseraClientError && error.code === 'NOT_MODIFIED');
  // @ts-expect-error get's include names relations (its options are list's and findOne's)
  await api.blog.posts.get({ id: 1, include: { comments: { limit: 1 } } });
  // @ts-expect-error no such relation
  await api.blog.posts.get({ id: 1, include: { tags: true } });
  return post.title + post.comments?.length;
}
`;

describe('the generated client.ts sends every input its routes take', () => {
  const folder = temporaryFolder('client-inputs');
  let out: string;
  let server: RunningCli;
  let api: any;
  let TesseraClientError: new (...args: unknown[]) => Error;
  let etagOf: (row: unknown) => string | undefined;

  beforeAll(async () => {
    out = path.join(folder.path, 'dist');
    await build('__tests__/bin/entries/bundle-relations.ts', out);
    fs.writeFileSync(path.join(out, 'usage.ts'), USAGE);
    server = await startBundle(out, { PORT: String(await freePort()) });
    ({ TesseraClientError, etagOf } = require(path.join(out, 'client.ts')));
    api = require(path.join(out, 'client.ts')).createClient({ baseUrl: server.url, headers: { 'x-user': '1' } });
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('types include on get, ifMatch on update, delete and upsert and ifNoneMatch on get, and refuses include options on get', () => {
    expect(() => typeCheckClient(folder.path, [path.join(out, 'client.ts'), path.join(out, 'usage.ts')], 'bare')).not.toThrow();
  }, 60_000);

  it('sends get include as ?include= and answers the row with its related rows', async () => {
    const post = await api.blog.posts.get({ id: 1, include: { comments: true, author: true } });
    expect(post).toEqual({ id: 1, authorId: 1, title: 'Hello', author: { id: 1, name: 'Alice' }, comments: [{ id: 1, postId: 1, body: 'c1' }, { id: 2, postId: 1, body: 'c2' }] });
    expect(await api.blog.posts.get({ id: 1, select: ['title'], include: { comments: true } })).toEqual({ title: 'Hello', comments: expect.any(Array) });
    await expect(api.blog.posts.get({ id: 1, include: { comments: { limit: 1 } } })).rejects.toThrow(/relation names/);
  });

  it('gives the ETag of a row answered whole, sends it as If-Match and answers 412 PRECONDITION_FAILED once the row changed', async () => {
    const read = await api.blog.posts.get({ id: 1 });
    const etag = etagOf(read);
    expect(etag).toMatch(/^"/);
    expect(etagOf(await api.blog.posts.get({ id: 1, select: ['title'] }))).toBeUndefined();
    const updated = await api.blog.posts.update({ id: 1, data: { title: 'Hello again' }, ifMatch: etag });
    expect(updated.title).toBe('Hello again');
    expect(etagOf(updated)).not.toBe(etag);
    const stale = await api.blog.posts.update({ id: 1, data: { title: 'lost' }, ifMatch: etag }).catch((error: unknown) => error);
    expect(stale).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
    const staleUpsert = await api.blog.posts.upsert({ id: 1, data: { authorId: 1, title: 'lost' }, ifMatch: etag }).catch((error: unknown) => error);
    expect(staleUpsert).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
    const upserted = await api.blog.posts.upsert({ id: 1, data: { authorId: 1, title: 'Hello' }, ifMatch: etagOf(updated) });
    expect(upserted).toEqual({ id: 1, authorId: 1, title: 'Hello' });
    expect(await api.blog.posts.get({ id: 1 })).toEqual(upserted);
    // A post without comments, so that its delete meets no foreign key.
    const alone = await api.blog.posts.upsert({ id: 2, data: { authorId: 1, title: 'Alone' } });
    const staleDelete = await api.blog.posts.delete({ id: 2, ifMatch: etag }).catch((error: unknown) => error);
    expect(staleDelete).toMatchObject({ status: 412, code: 'PRECONDITION_FAILED' });
    expect(await api.blog.posts.delete({ id: 2, ifMatch: etagOf(alone) })).toEqual({ success: true });
  });

  it('sends ifNoneMatch as If-None-Match on get: a 304 throws NOT_MODIFIED, a changed row answers whole', async () => {
    const read = await api.blog.posts.get({ id: 1 });
    const unchanged = await api.blog.posts.get({ id: 1, ifNoneMatch: etagOf(read) }).catch((error: unknown) => error);
    expect(unchanged).toBeInstanceOf(TesseraClientError);
    expect(unchanged).toMatchObject({ status: 304, code: 'NOT_MODIFIED' });
    expect(await api.blog.posts.get({ id: 1, ifNoneMatch: '"other"' })).toEqual(read);
  });
});
