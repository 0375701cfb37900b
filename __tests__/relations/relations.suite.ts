// CONTRACT §9 on one dialect, over HTTP in every handler mode (responses compared byte for byte): includes through the
// related resource's policy, access, scope and scrub; relation filters; the input checks; no N+1; setup errors.
import { BuiltBundle } from '../helpers/bundle-loader';
import type { DialectName } from '../helpers/databases';
import fc from 'fast-check';
import { createServer, crud, defineService, statementCacheStats } from 'tessera-api';
import { openRelationDatabase, twoKeyTable, type RelationDatabase } from '../helpers/relation-tables';
import { bodyValidator, invalidComponentSchemas, operationsOf, responseSchema } from '../helpers/openapi-reader';
import { validateOpenApi } from '../helpers/openapi-validator';
import { expectSameResponses, ResponseRecording } from '../helpers/response-recording';
import { clearRegistry, HANDLER_MODES, listen, type TestServer } from '../helpers/test-app';
import { relationRequest } from './relations-fuzz';
import { defineRelationsApp, insertRows, seedRelations, type RelationsApp } from './relations-app';
import { relationWriteCases } from './relation-writes.cases';

const MEMBER = { user: { id: 'm', role: 'member' } };
const ADMIN = { user: { id: 'a', role: 'admin' } };

interface Answer {
  status: number;
  body: any;
}

export function relationsSuite(dialect: DialectName): void {
  describe(`relations on ${dialect}`, () => relationsCases(dialect));
}

/** Statements per include call: PostgreSQL builds the included rows inside the parent's statement, the others one per level. */
const isOneStatement = (dialect: DialectName) => dialect === 'postgres';

function relationsCases(dialect: DialectName): void {
  const recordings: ResponseRecording[] = [];
  let database: RelationDatabase;
  let app: RelationsApp;
  const bundle = new BuiltBundle();

  beforeAll(async () => {
    database = await openRelationDatabase(dialect);
    await database.reset();
    await seedRelations(database);
    clearRegistry();
    app = defineRelationsApp(database);
  });
  afterAll(async () => {
    bundle.remove();
    await database.close();
    clearRegistry();
  });

  for (const mode of HANDLER_MODES) {
    const recording = new ResponseRecording(mode, `in ${mode} mode`);
    recordings.push(recording);
    describe(`in ${mode} mode`, () => {
      let server: TestServer;
      beforeAll(async () => {
        server = await listen({ services: [app.blog] }, { mode, recording, bundle });
      });
      afterAll(() => server.close());

      async function call(method: string, path: string, body?: unknown, ctx: Record<string, unknown> = MEMBER): Promise<Answer> {
        const headers: Record<string, string> = { 'x-test-user': JSON.stringify(ctx) };
        if (body !== undefined) headers['content-type'] = 'application/json';
        const response = await server.fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
        return { status: response.status, body: await response.json() };
      }
      const list = (resource: string, input: unknown, ctx?: Record<string, unknown>) => call('POST', `/api/${resource}/query`, input, ctx);

      describe('include', () => {
        it('adds a to-one relation as Row | null and a to-many relation as Row[], in the related list order', async () => {
          const answer = await list('posts', { include: { author: true, comments: true } });
          expect(answer.status).toBe(200);
          expect(answer.body.items).toEqual([
            {
              id: 1,
              title: 'Hello',
              authorId: 1,
              author: { id: 1, name: 'Ann', email: '***', active: true },
              comments: [
                { id: 1, postId: 1, body: 'nice', rating: 5 },
                { id: 2, postId: 1, body: 'meh', rating: 2 },
                { id: 3, postId: 1, body: 'great', rating: 4 },
              ],
            },
            { id: 2, title: 'Second', authorId: 1, author: { id: 1, name: 'Ann', email: '***', active: true }, comments: [{ id: 4, postId: 2, body: 'ok', rating: 3 }] },
            // Bob is inactive: outside the members' scope of authors, so his row reads null.
            { id: 3, title: 'From Bob', authorId: 2, author: null, comments: [{ id: 5, postId: 3, body: 'bob fan', rating: 5 }] },
            { id: 4, title: 'Orphan', authorId: null, author: null, comments: [] },
          ]);
        });

        it("applies the related resource's scope and scrub for the caller", async () => {
          const answer = await list('posts', { where: { id: { eq: 3 } }, include: { author: true } }, ADMIN);
          expect(answer.body.items[0].author).toEqual({ id: 2, name: 'Bob', email: 'bob@example.com', active: false });
        });

        it('takes select, where, orderBy and limit inside an include, per parent row', async () => {
          const answer = await list('posts', {
            select: ['title'],
            where: { id: { in: [1, 2] } },
            include: { comments: { select: ['body'], where: { rating: { gte: 3 } }, orderBy: [{ field: 'rating', direction: 'desc' }], limit: 1 }, author: { select: ['name'] } },
          });
          expect(answer.body.items).toEqual([
            { title: 'Hello', author: { name: 'Ann' }, comments: [{ body: 'nice' }] },
            { title: 'Second', author: { name: 'Ann' }, comments: [{ body: 'ok' }] },
          ]);
        });

        it('includes to-many rows through a foreign key, nested up to three levels', async () => {
          const answer = await list('authors', {
            where: { id: { eq: 1 } },
            include: { posts: { select: ['id'], include: { comments: { select: ['id'], limit: 2, include: { post: { select: ['title'] } } } } } },
          });
          expect(answer.body.items).toEqual([
            {
              id: 1,
              name: 'Ann',
              email: '***',
              active: true,
              posts: [
                { id: 1, comments: [{ id: 1, post: { title: 'Hello' } }, { id: 2, post: { title: 'Hello' } }] },
                { id: 2, comments: [{ id: 4, post: { title: 'Second' } }] },
              ],
            },
          ]);
        });

        it('answers each call its own include options when the related resource is public, one call after another', async () => {
          // posts is public: these include trees are built once per include input and kept (relation-reads.ts).
          const comment = (include: unknown) => list('comments', { where: { postId: { eq: 2 } }, include });
          expect((await comment({ post: { select: ['title'] } })).body.items).toEqual([{ id: 4, postId: 2, body: 'ok', rating: 3, post: { title: 'Second' } }]);
          expect((await comment({ post: { select: ['id'] } })).body.items).toEqual([{ id: 4, postId: 2, body: 'ok', rating: 3, post: { id: 2 } }]);
          expect((await comment({ post: true })).body.items).toEqual([{ id: 4, postId: 2, body: 'ok', rating: 3, post: { id: 2, title: 'Second', authorId: 1 } }]);
          expect((await call('GET', '/api/comments/4?include=post&select=id')).body).toEqual({ id: 4, post: { id: 2, title: 'Second', authorId: 1 } });
          const posts = (limit: number) => list('authors', { where: { id: { eq: 1 } }, select: ['id'], include: { posts: { select: ['id'], orderBy: [{ field: 'id', direction: 'desc' }], limit } } }, ADMIN);
          expect((await posts(1)).body.items).toEqual([{ id: 1, posts: [{ id: 2 }] }]);
          expect((await posts(2)).body.items).toEqual([{ id: 1, posts: [{ id: 2 }, { id: 1 }] }]);
          expect((await posts(1)).body.items).toEqual([{ id: 1, posts: [{ id: 2 }] }]);
        });

        it('includes on get (?include=a,b) and findOne', async () => {
          const got = await call('GET', '/api/posts/2?include=author,comments&select=title');
          expect(got.body).toEqual({ title: 'Second', author: { id: 1, name: 'Ann', email: '***', active: true }, comments: [{ id: 4, postId: 2, body: 'ok', rating: 3 }] });
          const found = await call('POST', '/api/posts/find-one', { where: { title: { eq: 'Orphan' } }, include: { author: true, comments: true } });
          expect(found.body).toEqual({ id: 4, title: 'Orphan', authorId: null, author: null, comments: [] });
          expect((await call('GET', '/api/posts/99?include=author')).status).toBe(404);
        });

        it('runs a repeated include from the statement cache (spec §8): every statement a hit, none prepared again', async () => {
          // An admin's authors have no scope: the posts page and both include levels may be cached.
          const input = (rating: number) => ({ include: { author: { select: ['name'] }, comments: { select: ['rating'], where: { rating: { gte: rating } }, limit: 2 } } });
          await list('posts', input(2), ADMIN);
          const before = statementCacheStats(database.db);
          const prepared = database.preparedTexts.length;
          // Other values in the include's where bind to the same statement.
          const again = await list('posts', input(4), ADMIN);
          const after = statementCacheStats(database.db);
          expect({ hits: after.hits - before.hits, misses: after.misses - before.misses }).toEqual({ hits: isOneStatement(dialect) ? 1 : 3, misses: 0 });
          // The driver's side (better-sqlite3 prepares in the process; the servers' drivers per connection).
          expect(database.preparedTexts.slice(prepared)).toEqual([]);
          expect(again.body.items.map((row: any) => [row.author?.name ?? null, row.comments.map((comment: any) => comment.rating)])).toEqual([
            ['Ann', [5, 4]],
            ['Ann', []],
            ['Bob', [5]],
            [null, []],
          ]);
        });

        it("answers FORBIDDEN naming the relation when the related resource's authorize says no", async () => {
          const answer = await list('posts', { include: { comments: true } }, { ...MEMBER, noComments: true });
          expect(answer.status).toBe(403);
          expect(answer.body.error.code).toBe('FORBIDDEN');
          expect(answer.body.error.message).toContain('`comments`');
          expect((await list('posts', { include: { author: true } }, {})).status).toBe(403);
        });

        it("refuses what the related resource's policy refuses, with the path into the include", async () => {
          const cases: [unknown, string][] = [
            [{ include: { editor: true } }, '/include/editor'],
            [{ include: { author: false } }, '/include/author'],
            [{ include: { author: { select: ['secretNote'] } } }, '/include/author/select/0'],
            [{ include: { author: { where: { secretNote: { eq: 'x' } } } } }, '/include/author/where/secretNote'],
            [{ include: { comments: { orderBy: [{ field: 'body' }] } } }, '/include/comments/orderBy/0/field'],
            [{ include: { comments: { limit: 11 } } }, '/include/comments/limit'],
            [{ include: { author: { limit: 1 } } }, '/include/author/limit'],
            [{ include: { comments: { include: { post: { include: { author: { include: { posts: true } } } } } } } }, '/include/comments/include/post/include/author/include'],
            [{ include: { comments: { include: { author: true } } } }, '/include/comments/include/author'],
          ];
          for (const [input, path] of cases) {
            const answer = await list('posts', input);
            expect([path, answer.status, answer.body.error.code, answer.body.error.details[0].path]).toEqual([path, 400, 'VALIDATION_ERROR', path]);
          }
        });
      });

      describe('relation filters', () => {
        const titles = async (input: unknown, ctx?: Record<string, unknown>) => (await list('posts', { ...(input as object), select: ['title'] }, ctx)).body.items.map((row: { title: string }) => row.title);
        const names = async (input: unknown, ctx?: Record<string, unknown>) => (await list('authors', { ...(input as object), select: ['name'] }, ctx)).body.items.map((row: { name: string }) => row.name);

        it('filters a to-one relation with is and isNot, inside the related scope', async () => {
          expect(await titles({ where: { author: { is: { name: { eq: 'Ann' } } } } })).toEqual(['Hello', 'Second']);
          expect(await titles({ where: { author: { isNot: { name: { eq: 'Ann' } } } } })).toEqual(['From Bob', 'Orphan']);
          // Bob is outside a member's scope of authors: no filter reaches him.
          expect(await titles({ where: { author: { is: { name: { eq: 'Bob' } } } } })).toEqual([]);
          expect(await titles({ where: { author: { is: { name: { eq: 'Bob' } } } } }, ADMIN)).toEqual(['From Bob']);
        });

        it('every: a related row whose where is NULL (a NULL rating against gte) fails it, as a direct list leaves it out', async () => {
          await insertRows(database, 'rel_comments', 'id, post_id, body, rating', [[6, 2, 'unrated', null]]);
          try {
            expect(await titles({ where: { comments: { every: { rating: { gte: 3 } } } } })).toEqual(['From Bob', 'Orphan']);
            expect(await titles({ where: { comments: { none: { rating: { lte: 2 } } } } })).toEqual(['Second', 'From Bob', 'Orphan']);
          } finally {
            await database.raw('DELETE FROM rel_comments WHERE id = 6');
          }
        });

        it('filters a to-many relation with some, every and none, also under AND / OR / NOT', async () => {
          expect(await names({ where: { posts: { some: { title: { contains: 'Hel' } } } } })).toEqual(['Ann']);
          expect(await names({ where: { posts: { none: {} } } })).toEqual(['Cy']);
          expect(await titles({ where: { comments: { every: { rating: { gte: 3 } } } } })).toEqual(['Second', 'From Bob', 'Orphan']);
          expect(await titles({ where: { OR: [{ comments: { some: { body: { contains: 'fan' } } } }, { NOT: { authorId: { isNull: true } }, comments: { none: {} } }] } })).toEqual(['From Bob']);
          const counted = await call('POST', '/api/posts/count', { where: { comments: { some: { rating: { gte: 5 } } } } });
          expect(counted.body).toEqual({ count: 2 });
          const exists = await call('POST', '/api/authors/exists', { where: { posts: { some: { comments: { some: { body: { contains: 'meh' } } } } } } });
          expect(exists.body).toEqual({ exists: true });
          const total = await list('posts', { where: { author: { is: {} } }, includeTotal: true, limit: 1, include: { author: { select: ['name'] } } });
          expect(total.body).toEqual({ items: [{ id: 1, title: 'Hello', authorId: 1, author: { name: 'Ann' } }], total: 2 });
        });

        it("filters a relation of a table to itself on each row's own related rows (comments and their replies)", async () => {
          const bodies = async (input: object) =>
            (await list('comments', { ...input, select: ['body'], orderBy: [{ field: 'id', direction: 'asc' }] })).body.items.map((row: { body: string }) => row.body);
          // meh (rating 2) answers nice, great (rating 4) answers meh.
          expect(await bodies({ where: { replies: { some: {} } } })).toEqual(['nice', 'meh']);
          expect(await bodies({ where: { replies: { none: {} } } })).toEqual(['great', 'ok', 'bob fan']);
          expect(await bodies({ where: { replies: { some: { rating: { gte: 4 } } } } })).toEqual(['meh']);
          expect(await bodies({ where: { replies: { every: { rating: { gte: 4 } } } } })).toEqual(['meh', 'great', 'ok', 'bob fan']);
          expect(await bodies({ where: { parent: { is: { rating: { gte: 5 } } } } })).toEqual(['meh']);
          expect(await bodies({ where: { parent: { isNot: { rating: { gte: 5 } } } } })).toEqual(['nice', 'great', 'ok', 'bob fan']);
          expect(await bodies({ where: { replies: { some: { replies: { some: {} } } } } })).toEqual(['nice']);
          expect((await call('POST', '/api/comments/count', { where: { parent: { is: {} } } })).body).toEqual({ count: 2 });
          const included = await list('posts', { select: ['title'], where: { id: { eq: 1 } }, include: { comments: { select: ['body'], where: { replies: { some: {} } } } } });
          expect(included.body.items[0].comments.map((row: { body: string }) => row.body)).toEqual(['nice', 'meh']);
        });

        it('pages by cursor through a relation filter with an include, the join column read but not answered (CONTRACT §10)', async () => {
          const input = { select: ['title'], where: { comments: { some: { rating: { gte: 3 } } } }, orderBy: [{ field: 'title', direction: 'desc' }], include: { author: { select: ['name'] } }, limit: 1 };
          const pages: unknown[] = [];
          let cursor: string | true | null = true;
          while (cursor !== null && pages.length < 5) {
            const answer = await list('posts', { ...input, cursor });
            expect(answer.status).toBe(200);
            pages.push(answer.body.items);
            cursor = answer.body.nextCursor as string | null;
          }
          expect(pages).toEqual([[{ title: 'Second', author: { name: 'Ann' } }], [{ title: 'Hello', author: { name: 'Ann' } }], [{ title: 'From Bob', author: null }]]);
        });

        it('refuses filters the relation or the related policy does not allow', async () => {
          const cases: [string, unknown, string][] = [
            ['posts', { where: { author: { some: {} } } }, '/where/author/some'],
            ['authors', { where: { posts: { is: {} } } }, '/where/posts/is'],
            ['posts', { where: { author: { is: { secretNote: { eq: 'ann secret' } } } } }, '/where/author/is/secretNote'],
            ['posts', { where: { author: { matches: {} } } }, '/where/author/matches'],
            ['comments', { where: { post: { is: {} } } }, '/where/post'],
            ['posts', { where: { author: { is: { posts: { some: { NOT: { NOT: { NOT: { NOT: { id: { eq: 1 } } } } } } } } } } }, '/where/author/is/posts/some/NOT/NOT/NOT/NOT'],
          ];
          for (const [resource, input, path] of cases) {
            const answer = await list(resource, input);
            expect([path, answer.status, answer.body.error.code, answer.body.error.details[0].path]).toEqual([path, 400, 'VALIDATION_ERROR', path]);
          }
        });
      });

      describe('relation filters in bulk writes', () => relationWriteCases(call, () => database));

      if (mode === 'generic') {
        describe('fuzz', () => {
          it('answers hostile includes and relation filters without a 5xx, and never with a hidden or scrubbed value', async () => {
            // Hidden: authors.secretNote and posts.hidden; scrubbed for members: the emails.
            const hiddenValues = ['ann secret', 'bob secret', '"h1"', '"h2"', '"h3"', '"h4"'];
            const scrubbedValues = ['ann@example.com', 'bob@example.com'];
            await fc.assert(
              fc.asyncProperty(relationRequest, async ({ resource, action, admin, body }) => {
                // Outside the recording: the other modes do not run this test.
                const response = await fetch(`${server.url}/api/${resource}/${action}`, {
                  method: 'POST',
                  headers: { 'content-type': 'application/json', 'x-test-user': JSON.stringify(admin ? ADMIN : MEMBER) },
                  body,
                });
                const text = await response.text();
                const leaks = [...hiddenValues, ...(admin ? [] : scrubbedValues)].filter((secret) => text.includes(secret));
                expect([body, response.status < 500, leaks]).toEqual([body, true, []]);
              }),
              { numRuns: 300, seed: 25 },
            );
          });
        });

        describe('documents', () => {
          it('documents include per relation and the included rows, in a document the OpenAPI 3.1 validator accepts', async () => {
            const document: any = await (await fetch(`${server.url}/openapi.json`)).json();
            expect(await validateOpenApi(document)).toMatchObject({ valid: true });
            expect(invalidComponentSchemas(document)).toEqual([]);
            expect(document.components.schemas['rel.posts.Include'].propertyNames).toEqual({ enum: ['author', 'comments'] });
            const operation = operationsOf(document).find((candidate) => candidate.operationId === 'rel.posts.list')!.operation;
            const check = bodyValidator(document);
            // Fetched outside the recording: the other modes do not run this test.
            const response = await fetch(`${server.url}/api/posts/query`, {
              method: 'POST',
              headers: { 'content-type': 'application/json', 'x-test-user': JSON.stringify(ADMIN) },
              body: JSON.stringify({ include: { author: true, comments: { include: { post: true } } } }),
            });
            expect(check(responseSchema(document, operation, 200), await response.json())).toBeNull();
            // A row with a key that is neither a field nor a relation would not pass.
            expect(check(responseSchema(document, operation, 200), { items: [{ id: 1, editor: null }] })).not.toBeNull();
          });
        });
      }
    });
  }

  describe('setup errors', () => {
    let count = 0;
    const service = () => defineService({ name: `setup${++count}`, db: database.db });

    it('names the relation when no join exists, several do, or the related resource is unknown', () => {
      const { authors, comments } = database.tables;
      const svc = service();
      const commentsResource = svc.resource({ name: 'comments', table: comments, id: comments.id }).use(crud({ access: 'public', fields: { id: { read: true } } }));
      const define = (name: string, relations: Record<string, any>) => () =>
        svc.resource({ name, table: authors, id: authors.id }).use(crud({ access: 'public', fields: { id: { read: true } }, relations }));
      expect(define('a1', { comments: { resource: commentsResource } })).toThrow(
        `${svc.name}.a1: relations.comments: no Drizzle relation "comments" and no foreign key between tables "rel_authors" and "rel_comments": declare one of them`,
      );
      expect(define('a2', { comments: { resource: {} } })).toThrow(`${svc.name}.a2: relations.comments.resource is not a resource`);
      const bare = svc.resource({ name: 'bare', table: comments, id: comments.id });
      expect(define('a3', { comments: { resource: bare } })).toThrow(`${svc.name}.a3: relations.comments.resource has no crud plugin`);
      expect(define('a4', { name: { resource: commentsResource } })).toThrow(`${svc.name}.a4: relations.name: "name" is a column of the table`);
      expect(define('a5', { comments: { resource: commentsResource, maxLimit: 0 } })).toThrow(`${svc.name}.a5: relations.comments.maxLimit must be a positive integer`);
      expect(define('a6', { comments: { resource: commentsResource, sort: true } })).toThrow(`${svc.name}.a6: relations.comments.sort is not a relation option`);
      // A relation given by a function resolves when the server is built.
      define('a7', { comments: { resource: () => commentsResource } })();
      expect(() => createServer({ services: [svc] })).toThrow(`${svc.name}.a7: relations.comments: no Drizzle relation "comments"`);
    });

    it('names the relation when two foreign keys join the tables, or the Drizzle relation leads elsewhere', () => {
      const { authors, posts } = database.tables;
      const twice = twoKeyTable(dialect, authors);
      const svc = service();
      const authorsResource = svc.resource({ name: 'authors', table: authors, id: authors.id }).use(crud({ access: 'public', fields: { id: { read: true } } }));
      expect(() => svc.resource({ name: 'reviews', table: twice, id: twice.id }).use(crud({ access: 'public', relations: { author: { resource: authorsResource } } }))).toThrow(
        `${svc.name}.reviews: relations.author: 2 foreign keys join tables "rel_reviews" and "rel_authors": declare a Drizzle relation "author" to say which one`,
      );
      // posts.author is a Drizzle relation to authors: a resource over another table cannot be its target.
      const others = svc.resource({ name: 'others', table: posts, id: posts.id }).use(crud({ access: 'public', fields: { id: { read: true } } }));
      expect(() => svc.resource({ name: 'posts', table: posts, id: posts.id }).use(crud({ access: 'public', relations: { author: { resource: others } } }))).toThrow(
        `${svc.name}.posts: relations.author: the Drizzle relation "author" leads to table "rel_authors", but ${svc.name}.others serves table "rel_posts"`,
      );
    });
  });

  describe('statements and plans', () => {
    const ctx = MEMBER;
    /** n posts, each by its own author, with five comments each. */
    async function seedPosts(n: number): Promise<void> {
      await database.reset();
      const active = database.dialect === 'sqlite' ? 1 : true;
      const ids = Array.from({ length: n }, (_, index) => index + 1);
      await insertRows(database, 'rel_authors', 'id, name, email, active', ids.map((id) => [id, `Author ${id}`, `a${id}@example.com`, active]));
      await insertRows(database, 'rel_posts', 'id, title, author_id', ids.map((id) => [id, `Post ${id}`, id]));
      await insertRows(database, 'rel_comments', 'id, post_id, body, rating', ids.flatMap((id) => [1, 2, 3, 4, 5].map((k) => [id * 10 + k, id, `Comment ${k}`, k])));
    }
    async function statementsOf(run: () => Promise<unknown>): Promise<{ sql: string; params: unknown[] }[]> {
      database.statements.length = 0;
      await run();
      return [...database.statements];
    }
    afterAll(async () => {
      await database.reset();
      await seedRelations(database);
    });

    it('sends as many statements for 100 posts with their authors and comments as for one (no N+1)', async () => {
      const call = () => app.posts.list({ input: { limit: 100, include: { author: true, comments: { limit: 5 } } }, ctx });
      await seedPosts(1);
      const one = await statementsOf(call);
      const [first] = (await call()).items as any[];
      expect(first.author.name).toBe('Author 1');
      expect(first.comments).toHaveLength(5);
      await seedPosts(100);
      const hundred = await statementsOf(call);
      const rows = (await call()).items as any[];
      expect(rows).toHaveLength(100);
      expect(rows.every((row) => row.author !== null && row.comments.length === 5)).toBe(true);
      // One statement for the posts, one per include level; on PostgreSQL one in all.
      const perCall = isOneStatement(dialect) ? 1 : 3;
      expect({ one: one.length, hundred: hundred.length }).toEqual({ one: perCall, hundred: perCall });
      // Nested: authors → posts → comments, one statement per level still (one in all on PostgreSQL).
      const nested = await statementsOf(() => app.authors.list({ input: { limit: 100, include: { posts: { include: { comments: true } } } }, ctx }));
      expect(nested).toHaveLength(perCall);
      const got = await statementsOf(() => app.posts.get({ input: { id: 7, include: { author: true, comments: { include: { post: true } } } }, ctx }));
      expect(got).toHaveLength(isOneStatement(dialect) ? 1 : 4);
    });

    it('plans an include and a some filter over the indexed foreign key without a full scan of the related table', async () => {
      await seedPosts(100);
      // The comments level's statement: the second, or on PostgreSQL the only one.
      const include = (await statementsOf(() => app.posts.list({ input: { where: { id: { in: [5, 6] } }, include: { comments: { limit: 3 } } }, ctx }))).at(-1)!;
      const [filter] = await statementsOf(() => app.posts.list({ input: { where: { comments: { some: { rating: { gte: 5 } } } }, limit: 5 }, ctx }));
      for (const statement of [include, filter]) {
        const plan = await database.explain(statement.sql, statement.params);
        const related = plan.filter((line) => /rel_comments/.test(line));
        expect(related.length).toBeGreaterThan(0);
        // SQLite: SEARCH, not SCAN; MariaDB: not type ALL; PostgreSQL: no Seq Scan.
        expect([statement.sql, related.filter((line) => /^SCAN rel_comments\b|^rel_comments ALL\b|Seq Scan on rel_comments/.test(line))]).toEqual([statement.sql, []]);
      }
    });
  });

  describe('handler modes', () => {
    it('answer every request byte for byte the same', () => {
      expectSameResponses(recordings);
    });
  });
}
