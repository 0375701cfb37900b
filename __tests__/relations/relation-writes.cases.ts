// CONTRACT §9 in the bulk writes (relations suite, every dialect and handler mode): updateMany and deleteMany take
// relation filters wherever a list does, through the related resource's authorize and scope, with maxAffected and
// the written resource's own scope still applied. Each case writes, then puts the seeded rows back.
import type { RelationDatabase } from '../helpers/relation-tables';
import { reseedRelations } from './relations-app';

interface Answer {
  status: number;
  body: any;
}
type Call = (method: string, path: string, body?: unknown, ctx?: Record<string, unknown>) => Promise<Answer>;

const MEMBER = { user: { id: 'm', role: 'member' } };
const ADMIN = { user: { id: 'a', role: 'admin' } };

export function relationWriteCases(call: Call, database: () => RelationDatabase): void {
  const column = async (resource: string, key: string) =>
    (await call('POST', `/api/${resource}/query`, { select: [key], orderBy: [{ field: 'id', direction: 'asc' }] }, ADMIN)).body.items.map((row: Record<string, unknown>) => row[key]);
  const SEEDED_TITLES = ['Hello', 'Second', 'From Bob', 'Orphan'];

  afterEach(() => reseedRelations(database()));

  it('deleteMany filters through a relation of the table to itself, also under OR', async () => {
    const answer = await call('POST', '/api/comments/delete', { where: { OR: [{ postId: { eq: 3 } }, { replies: { some: { rating: { lte: 2 } } } }] } });
    // nice has a reply rated 2 (meh); bob fan is on post 3. Then great, the reply to meh.
    expect([answer.status, answer.body]).toEqual([200, { count: 2 }]);
    expect(await column('comments', 'body')).toEqual(['meh', 'great', 'ok']);
    const parent = await call('POST', '/api/comments/delete', { where: { parent: { is: { body: { contains: 'me' } } } } });
    expect(parent.body).toEqual({ count: 1 });
    expect(await column('comments', 'body')).toEqual(['meh', 'ok']);
  });

  it('deleteMany and updateMany filter a to-many relation with none and some', async () => {
    expect((await call('POST', '/api/posts/delete', { where: { comments: { none: {} } } })).body).toEqual({ count: 1 });
    expect(await column('posts', 'title')).toEqual(['Hello', 'Second', 'From Bob']);
    const updated = await call('PATCH', '/api/posts', { where: { comments: { some: { body: { contains: 'fan' } } } }, data: { title: 'Fan mail' } });
    expect([updated.status, updated.body]).toEqual([200, { count: 1 }]);
    expect(await column('posts', 'title')).toEqual(['Hello', 'Second', 'Fan mail']);
  });

  it("reaches related rows only inside the related resource's list scope (Bob is outside a member's authors)", async () => {
    const input = { where: { OR: [{ id: { eq: 99 } }, { author: { is: { name: { eq: 'Bob' } } } }] }, data: { title: 'x' } };
    expect((await call('PATCH', '/api/posts', input)).body).toEqual({ count: 0 });
    expect(await column('posts', 'title')).toEqual(SEEDED_TITLES);
    expect((await call('PATCH', '/api/posts', input, ADMIN)).body).toEqual({ count: 1 });
    expect(await column('posts', 'title')).toEqual(['Hello', 'Second', 'x', 'Orphan']);
  });

  it("refuses a relation the caller may not list, as list refuses it, and writes nothing", async () => {
    const where = { comments: { some: { rating: { gte: 1 } } } };
    const ctx = { ...MEMBER, noComments: true };
    const listed = await call('POST', '/api/posts/query', { where }, ctx);
    expect([listed.status, listed.body.error.code, listed.body.error.message]).toEqual([403, 'FORBIDDEN', 'relation `comments` is not allowed: comments.list is not allowed']);
    for (const [method, path, body] of [['PATCH', '/api/posts', { where, data: { title: 'x' } }], ['POST', '/api/posts/delete', { where }]] as const) {
      expect(await call(method, path, body, ctx)).toEqual(listed);
    }
    expect(await column('posts', 'title')).toEqual(SEEDED_TITLES);
  });

  it('keeps maxAffected: a relation filter matching more rows changes nothing', async () => {
    const answer = await call('PATCH', '/api/posts', { where: { comments: { some: {} } }, data: { title: 'x' } });
    expect([answer.status, answer.body.error.code, answer.body.error.details[0].path]).toEqual([400, 'VALIDATION_ERROR', '/where']);
    expect(answer.body.error.message).toBe('where matches 3 rows of posts, more than maxAffected (2); nothing was changed');
    expect(await column('posts', 'title')).toEqual(SEEDED_TITLES);
  });

  it("keeps the written resource's own scope: a member's updateMany of authors reaches active authors only", async () => {
    const input = { where: { OR: [{ posts: { some: { title: { eq: 'Hello' } } } }, { posts: { some: { title: { eq: 'From Bob' } } } }] }, data: { name: 'Z' } };
    expect((await call('PATCH', '/api/authors', input)).body).toEqual({ count: 1 });
    expect(await column('authors', 'name')).toEqual(['Z', 'Bob', 'Cy']);
    expect((await call('PATCH', '/api/authors', input, ADMIN)).body).toEqual({ count: 2 });
    expect(await column('authors', 'name')).toEqual(['Z', 'Z', 'Cy']);
  });
}
