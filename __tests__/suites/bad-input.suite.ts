// Bad input tried on purpose (CONTRACT §2 and §4): wrong types, unknown keys, policy violations,
// hostile JSON, LIKE wildcards, SQL in values, broken bodies and database failures. Each answers its
// documented code and status, and no rejected write leaves a trace in the database.
import type { ErrorCode, Where } from 'tessera';
import { openDatabase, type DialectName, type TestDatabase } from '../helpers/databases';
import {
  ALICE,
  clearRegistry,
  defineTestService,
  httpClient,
  inProcessClient,
  listen,
  type Answer,
  type Client,
  type RunningServer,
  type TestService,
} from '../helpers/test-app';

const MODES = ['http', 'in-process'] as const;
const UNKNOWN_UUID = '00000000-0000-4000-8000-000000000000';

function expectError(answer: Answer, code: ErrorCode, status: number): void {
  expect(answer.status).toBe(status);
  expect(answer.body).toEqual({ error: expect.objectContaining({ code, message: expect.any(String) }) });
}

/** A VALIDATION_ERROR whose details name `path` (a JSON Pointer into the input), with `message` in that detail. */
function expectInvalid(answer: Answer, path: string, message?: string): void {
  expectError(answer, 'VALIDATION_ERROR', 400);
  const details: { path: string; message: string }[] = answer.body.error.details;
  expect(details).toEqual(expect.arrayContaining([{ path, message: expect.any(String) }]));
  if (message !== undefined) expect(details.find((detail) => detail.path === path)?.message).toContain(message);
}

/** `levels` of AND / OR / NOT wrapped around one condition on title. */
function nestedWhere(levels: number): Where {
  let where: Where = { title: { eq: 'deep' } };
  const wrappers = ['AND', 'OR', 'NOT'] as const;
  for (let level = 0; level < levels; level++) {
    const key = wrappers[level % wrappers.length];
    where = key === 'NOT' ? { NOT: where } : { [key]: [where] };
  }
  return where;
}

/**
 * What the test columns hold, where the databases differ: INT is 32-bit on mysql and postgres, while a
 * SQLite INTEGER holds 64 bits (of which JSON carries 2^53 - 1 exactly); PostgreSQL text cannot hold
 * U+0000; MySQL TEXT holds 65,535 bytes.
 */
const CAPACITY = {
  sqlite: { largestInt: Number.MAX_SAFE_INTEGER, tooLargeInt: 1e20, holdsNul: true, textBytes: Infinity },
  mysql: { largestInt: 2 ** 31 - 1, tooLargeInt: 2 ** 31, holdsNul: true, textBytes: 65535 },
  postgres: { largestInt: 2 ** 31 - 1, tooLargeInt: 2 ** 31, holdsNul: false, textBytes: Infinity },
} as const;

export function badInputSuite(dialect: DialectName): void {
  const capacity = CAPACITY[dialect];

  describe('bad input', () => {
    let database: TestDatabase;
    let service: TestService;
    let server: RunningServer;
    const logLines: string[] = [];

    beforeAll(async () => {
      database = await openDatabase(dialect);
      await database.reset();
      clearRegistry();
      service = defineTestService(database);
      server = await listen({ services: [service.shop], requestLogging: { logger: (line) => void logLines.push(line) } });
    });

    afterAll(async () => {
      await server?.close();
      await database?.close();
      clearRegistry();
    });

    beforeEach(async () => {
      await database.reset();
    });

    /** Every row of the test tables, to compare before and after a rejected write. */
    async function snapshot(): Promise<unknown[]> {
      return [
        await database.raw('SELECT * FROM t_notes ORDER BY id'),
        await database.raw('SELECT * FROM t_items ORDER BY id'),
        await database.raw('SELECT * FROM t_categories ORDER BY id'),
      ];
    }

    /** Runs a write that must be rejected and proves the database did not change. */
    async function rejectedWrite(attempt: () => Promise<Answer>): Promise<Answer> {
      const before = await snapshot();
      const answer = await attempt();
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(await snapshot()).toEqual(before);
      return answer;
    }

    async function rowCount(table: 't_notes' | 't_items'): Promise<number> {
      const [row] = (await database.raw(`SELECT COUNT(*) AS n FROM ${table}`)) as { n: unknown }[];
      return Number(row.n);
    }

    /** A raw HTTP request, for the cases where the transport itself is the point. */
    async function send(method: string, path: string, body?: string, headers: Record<string, string> = {}, url = server.url): Promise<Answer> {
      const response = await fetch(url + path, { method, headers, body });
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      return { status: response.status, body: await response.json() };
    }

    async function createNote(title: string, content: string | null = null): Promise<{ id: string }> {
      return (await service.notes.create({ input: { title, content } })) as { id: string };
    }

    for (const mode of MODES) {
      describe(mode === 'http' ? 'over HTTP' : 'in-process', () => {
        let client: Client;
        beforeAll(() => {
          client = mode === 'http' ? httpClient(server.url) : inProcessClient(service);
        });

        describe('wrong types and limits', () => {
          it('rejects a value of the wrong type in create data with VALIDATION_ERROR and writes nothing', async () => {
            const answer = await rejectedWrite(() => client.call('notes', 'create', { title: 5 }));
            expectInvalid(answer, '/title');
          });

          it('rejects a filter value of the wrong type with VALIDATION_ERROR', async () => {
            expectInvalid(await client.call('notes', 'list', { where: { title: { eq: 5 } } }), '/where/title/eq');
          });

          it.each([
            ['a string limit', { limit: '10' }, '/limit'],
            ['a negative offset', { offset: -1 }, '/offset'],
            ['limit 0', { limit: 0 }, '/limit'],
            ['a limit above maxLimit', { limit: 11 }, '/limit'],
            ['a fractional limit', { limit: 2.5 }, '/limit'],
            ['a string includeTotal', { includeTotal: 'yes' }, '/includeTotal'],
          ])('rejects %s in list input with VALIDATION_ERROR', async (_case, input, path) => {
            expectInvalid(await client.call('notes', 'list', input), path);
          });

          it('accepts limit equal to maxLimit', async () => {
            const answer = await client.call('notes', 'list', { limit: 10 });
            expect(answer.status).toBe(200);
          });

          it('rejects unknown top-level keys in list input, naming the key', async () => {
            expectInvalid(await client.call('notes', 'list', { page: 2 }), '/page', 'unknown input key `page`');
            expectInvalid(await client.call('notes', 'count', { limit: 1 }), '/limit', 'unknown input key `limit`');
          });
        });

        describe('create and update data', () => {
          it('rejects a hidden field in create data with "field `internal` is not writable" and writes nothing', async () => {
            const answer = await rejectedWrite(() => client.call('notes', 'create', { title: 'x', internal: 'sneaky' }));
            expectInvalid(answer, '/internal', 'field `internal` is not writable');
          });

          it('rejects an unknown field in create data, naming it, and writes nothing', async () => {
            const answer = await rejectedWrite(() => client.call('notes', 'create', { title: 'x', nope: 1 }));
            expectInvalid(answer, '/nope', 'field `nope` is not writable');
          });

          it('rejects create data missing a required column and writes nothing', async () => {
            const answer = await rejectedWrite(() => client.call('notes', 'create', { content: 'no title' }));
            expectInvalid(answer, '/title');
          });

          it('rejects a non-updatable field in update data and changes nothing', async () => {
            const note = await createNote('kept', 'original');
            const answer = await rejectedWrite(() => client.call('notes', 'update', { id: note.id, data: { title: 'changed', internal: 'sneaky' } }));
            expectInvalid(answer, '/data/internal', 'field `internal` is not updatable');
          });

          it('rejects update with empty data and changes nothing', async () => {
            const note = await createNote('kept');
            const answer = await rejectedWrite(() => client.call('notes', 'update', { id: note.id, data: {} }));
            expectInvalid(answer, '/data', 'at least one field');
          });

          it('rejects the primary key in update data and changes nothing', async () => {
            const note = await createNote('kept');
            const answer = await rejectedWrite(() => client.call('notes', 'update', { id: note.id, data: { id: UNKNOWN_UUID } }));
            expectInvalid(answer, '/data/id', 'field `id` is not updatable');
          });

          it.each(['__proto__', 'constructor'])('rejects a `%s` key in create data with VALIDATION_ERROR, writes nothing and pollutes no prototype', async (key) => {
            const input = JSON.parse(`{"${key}": {"polluted": true}, "title": "x"}`);
            const answer = await rejectedWrite(() => client.call('notes', 'create', input));
            expectInvalid(answer, `/${key}`);
            expect(({} as any).polluted).toBeUndefined();
          });

          it.each(['__proto__', 'constructor'])('rejects a `%s` key in update data and in where with VALIDATION_ERROR', async (key) => {
            const note = await createNote('kept');
            const data = JSON.parse(`{"${key}": {"polluted": true}, "title": "x"}`);
            expectInvalid(await rejectedWrite(() => client.call('notes', 'update', { id: note.id, data })), `/data/${key}`);
            const where = JSON.parse(`{"${key}": {"eq": "x"}}`);
            expectInvalid(await client.call('notes', 'list', { where }), `/where/${key}`);
            expect(({} as any).polluted).toBeUndefined();
          });
        });

        describe('where, select and orderBy against the field policy', () => {
          it('rejects where on a hidden field with VALIDATION_ERROR', async () => {
            expectInvalid(await client.call('notes', 'list', { where: { internal: { eq: 'x' } } }), '/where/internal', 'field `internal` cannot be filtered');
          });

          it('rejects where on a readable field without filter operators with VALIDATION_ERROR', async () => {
            const answer = await client.call('items', 'list', { where: { rating: { gt: 1 } } }, { user: ALICE });
            expectInvalid(answer, '/where/rating', 'field `rating` cannot be filtered');
          });

          it('rejects an operator the field policy does not list with VALIDATION_ERROR', async () => {
            const answer = await client.call('notes', 'count', { where: { content: { eq: 'x' } } });
            expectInvalid(answer, '/where/content/eq', 'operator `eq` is not allowed on field `content`');
          });

          it('rejects an unknown operator with VALIDATION_ERROR', async () => {
            expectInvalid(await client.call('notes', 'exists', { where: { title: { like: '%' } } }), '/where/title/like');
          });

          it('accepts AND / OR / NOT nested 5 levels deep and rejects 6', async () => {
            expect((await client.call('notes', 'list', { where: nestedWhere(5) })).status).toBe(200);
            const answer = await client.call('notes', 'list', { where: nestedWhere(6) });
            expectError(answer, 'VALIDATION_ERROR', 400);
            expect(answer.body.error.details[0].path).toMatch(/^\/where\//);
            expect(answer.body.error.message).toContain('at most 5 levels');
          });

          it('accepts `in` with 1000 values and rejects 1001', async () => {
            const values = Array.from({ length: 1001 }, (_, index) => `title-${index}`);
            expect((await client.call('notes', 'list', { where: { title: { in: values.slice(0, 1000) } } })).status).toBe(200);
            expectInvalid(await client.call('notes', 'list', { where: { title: { in: values } } }), '/where/title/in');
          });

          it('rejects `in: []` with VALIDATION_ERROR', async () => {
            expectInvalid(await client.call('notes', 'list', { where: { title: { in: [] } } }), '/where/title/in');
            expectInvalid(await client.call('notes', 'list', { where: { id: { notIn: [] } } }), '/where/id/notIn');
          });

          it.each([[['a']], [['a', 'b', 'c']]])('rejects `between` with %j (not [low, high])', async (pair) => {
            expectInvalid(await client.call('notes', 'list', { where: { title: { between: pair } } }), '/where/title/between');
          });

          it('rejects `isNull: false` with VALIDATION_ERROR', async () => {
            expectInvalid(await client.call('notes', 'list', { where: { content: { isNull: false } } }), '/where/content/isNull');
          });

          it('rejects select of a hidden or unknown field with VALIDATION_ERROR', async () => {
            expectInvalid(await client.call('notes', 'list', { select: ['title', 'internal'] }), '/select/1', 'field `internal` is not readable');
            expectInvalid(await client.call('notes', 'findOne', { select: ['nope'] }), '/select/0', 'field `nope` is not readable');
            const note = await createNote('kept');
            expectInvalid(await client.call('notes', 'get', { id: note.id, select: ['internal'] }), '/select/0', 'field `internal` is not readable');
          });

          it('rejects an empty select with VALIDATION_ERROR', async () => {
            expectInvalid(await client.call('notes', 'list', { select: [] }), '/select');
          });

          it('rejects orderBy on a field without sort: true with VALIDATION_ERROR', async () => {
            expectInvalid(await client.call('notes', 'list', { orderBy: [{ field: 'content' }] }), '/orderBy/0/field', 'field `content` cannot be sorted');
          });

          it('rejects more than 5 orderBy entries with VALIDATION_ERROR', async () => {
            const orderBy = Array.from({ length: 6 }, (_, index) => ({ field: index % 2 === 0 ? 'title' : 'id' }));
            expectInvalid(await client.call('notes', 'list', { orderBy }), '/orderBy');
            expect((await client.call('notes', 'list', { orderBy: orderBy.slice(0, 5) })).status).toBe(200);
          });
        });

        describe('values reach the database as data', () => {
          const TITLES = ['100% sure', '100 percent', 'a_b', 'axb', 'wow!', 'wow', 'back\\slash', 'backslash', 'star*', 'stars', 'q?', 'qq', '[x]', 'x'];

          it.each([
            ['contains', '%', ['100% sure']],
            ['startsWith', '100%', ['100% sure']],
            ['contains', '_', ['a_b']],
            ['contains', 'a_b', ['a_b']],
            ['endsWith', '!', ['wow!']],
            ['contains', '\\', ['back\\slash']],
            ['contains', 'k\\s', ['back\\slash']],
            ['endsWith', '*', ['star*']],
            ['endsWith', '?', ['q?']],
            ['startsWith', '[', ['[x]']],
            ['contains', '[x]', ['[x]']],
            ['contains', '%_!\\*?[', []],
          ])('matches LIKE wildcards literally: %s %j', async (operator, text, expected) => {
            for (const title of TITLES) await createNote(title);
            const answer = await client.call('notes', 'list', { where: { title: { [operator]: text } }, select: ['title'], orderBy: [{ field: 'title' }], limit: 10 });
            expect(answer.status).toBe(200);
            expect(answer.body.items.map((row: { title: string }) => row.title)).toEqual(expected);
          });

          it('binds values as parameters: SQL in a value is stored and read back verbatim', async () => {
            const title = "x'); DROP TABLE t_notes; --";
            const created = await client.call('notes', 'create', { title, content: "'; DELETE FROM t_notes; --" });
            expect(created.status).toBe(201);
            expect(created.body.title).toBe(title);
            const read = await client.call('notes', 'get', { id: created.body.id });
            expect(read.body).toEqual({ id: created.body.id, title, content: "'; DELETE FROM t_notes; --" });
            const found = await client.call('notes', 'list', { where: { title: { eq: title } } });
            expect(found.body.items).toHaveLength(1);
            const contained = await client.call('notes', 'count', { where: { title: { contains: "'); DROP" } } });
            expect(contained.body).toEqual({ count: 1 });
            expect(await rowCount('t_notes')).toBe(1);
          });
        });

        describe('values the database cannot hold', () => {
          it('rejects an offset beyond the exact integer range with VALIDATION_ERROR, and answers an empty page far past the end', async () => {
            expectInvalid(await client.call('notes', 'list', { offset: 1e20 }), '/offset');
            expect((await client.call('notes', 'list', { offset: 2 ** 40 })).body).toEqual({ items: [] });
          });

          it('accepts the largest integer an integer column holds and rejects a larger one with VALIDATION_ERROR, writing nothing', async () => {
            const largest = await client.call('items', 'create', { name: 'largest', price: capacity.largestInt }, { user: ALICE });
            expect(largest.status).toBe(201);
            expect(largest.body.price).toBe(capacity.largestInt);
            const answer = await rejectedWrite(() => client.call('items', 'create', { name: 'too large', price: capacity.tooLargeInt }, { user: ALICE }));
            expectInvalid(answer, '/price');
          });

          it('rejects an integer beyond the column range as a filter value and as an id with VALIDATION_ERROR', async () => {
            expectInvalid(await client.call('items', 'count', { where: { price: { gt: capacity.tooLargeInt } } }, { user: ALICE }), '/where/price/gt');
            expectInvalid(await client.call('items', 'get', { id: capacity.tooLargeInt }, { user: ALICE }), '/id');
          });

          it('stores a NUL character verbatim, or answers VALIDATION_ERROR where the database cannot hold one (postgres)', async () => {
            const title = 'nul\u0000inside';
            const created = await (capacity.holdsNul ? client.call('notes', 'create', { title }) : rejectedWrite(() => client.call('notes', 'create', { title })));
            const found = await client.call('notes', 'list', { where: { title: { eq: title } } });
            if (capacity.holdsNul) {
              expect(created.status).toBe(201);
              expect(found.body.items.map((row: { title: string }) => row.title)).toEqual([title]);
            } else {
              expectError(created, 'VALIDATION_ERROR', 400);
              expectError(found, 'VALIDATION_ERROR', 400);
            }
          });

          it('stores text up to what the column holds, and answers VALIDATION_ERROR above it (mysql TEXT: 65,535 bytes), writing nothing', async () => {
            const fits = 'x'.repeat(Math.min(capacity.textBytes, 70000));
            expect((await client.call('notes', 'create', { title: 'fits', content: fits })).status).toBe(201);
            for (const content of ['y'.repeat(70000), '€'.repeat(30000)]) {
              if (Buffer.byteLength(content) <= capacity.textBytes) {
                const stored = await client.call('notes', 'create', { title: 'long', content });
                expect(stored.status).toBe(201);
                expect(stored.body.content).toBe(content);
              } else {
                expectError(await rejectedWrite(() => client.call('notes', 'create', { title: 'too long', content })), 'VALIDATION_ERROR', 400);
              }
            }
          });
        });

        describe('ids', () => {
          it('rejects an id of the wrong type with VALIDATION_ERROR', async () => {
            expectInvalid(await client.call('items', 'get', { id: 'abc' }, { user: ALICE }), '/id');
            expectInvalid(await rejectedWrite(() => client.call('items', 'update', { id: 'abc', data: { name: 'n' } }, { user: ALICE })), '/id');
            expectInvalid(await rejectedWrite(() => client.call('items', 'delete', { id: 'abc' }, { user: ALICE })), '/id');
          });

          it('answers 404 NOT_FOUND for an unknown id on get, update and delete', async () => {
            await createNote('kept');
            expectError(await client.call('notes', 'get', { id: UNKNOWN_UUID }), 'NOT_FOUND', 404);
            expectError(await rejectedWrite(() => client.call('notes', 'update', { id: UNKNOWN_UUID, data: { title: 'x' } })), 'NOT_FOUND', 404);
            expectError(await rejectedWrite(() => client.call('notes', 'delete', { id: UNKNOWN_UUID })), 'NOT_FOUND', 404);
          });
        });

        describe('database failures', () => {
          it('answers 500 INTERNAL_ERROR with no SQL, no stack and no value when the database fails', async () => {
            logLines.length = 0;
            await database.raw('DROP TABLE t_notes');
            try {
              const answers = [await client.call('notes', 'list', {}), await client.call('notes', 'create', { title: 'SENTINEL-abc' })];
              for (const answer of answers) {
                expect(answer.status).toBe(500);
                expect(answer.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } });
                const text = JSON.stringify(answer.body).toLowerCase();
                for (const leak of ['select', 'insert', 't_notes', 'sentinel', ' at ']) expect(text).not.toContain(leak);
              }
              for (const line of logLines) expect(line).not.toContain('SENTINEL');
            } finally {
              await database.reset();
            }
          });

          it('answers 409 CONFLICT for a unique violation, without the duplicated value, and writes nothing', async () => {
            const first = await client.call('items', 'create', { name: 'Unique Widget', price: 1 }, { user: ALICE });
            expect(first.status).toBe(201);
            const answer = await rejectedWrite(() => client.call('items', 'create', { name: 'Unique Widget', price: 2 }, { user: ALICE }));
            expectError(answer, 'CONFLICT', 409);
            expect(answer.body.error.message).not.toContain('Unique Widget');
            expect(answer.body.error.details).toBeUndefined();
            expect(await rowCount('t_items')).toBe(1);
          });

          it('answers 409 CONFLICT for a foreign-key violation and writes nothing', async () => {
            const answer = await rejectedWrite(() => client.call('items', 'create', { name: 'Orphan', categoryId: 999999 }, { user: ALICE }));
            expectError(answer, 'CONFLICT', 409);
            expect(answer.body.error.message).not.toContain('999999');
            expect(await rowCount('t_items')).toBe(0);
          });
        });
      });
    }

    describe('over HTTP only (the transport is the point)', () => {
      const json = { 'content-type': 'application/json' };

      it('answers 415 UNSUPPORTED_MEDIA_TYPE for a body that is not application/json, and writes nothing', async () => {
        const answer = await rejectedWrite(() => send('POST', '/api/notes', '{"title":"x"}', { 'content-type': 'text/plain' }));
        expectError(answer, 'UNSUPPORTED_MEDIA_TYPE', 415);
        expectError(await send('POST', '/api/notes/query', 'limit=5', { 'content-type': 'application/x-www-form-urlencoded' }), 'UNSUPPORTED_MEDIA_TYPE', 415);
      });

      it('answers 400 BAD_REQUEST for malformed JSON, and writes nothing', async () => {
        const answer = await rejectedWrite(() => send('POST', '/api/notes', '{"title": ', json));
        expectError(answer, 'BAD_REQUEST', 400);
        expectError(await send('POST', '/api/notes/query', "{'limit': 5}", json), 'BAD_REQUEST', 400);
      });

      it('answers VALIDATION_ERROR for a JSON array as a create body, and writes nothing', async () => {
        const answer = await rejectedWrite(() => send('POST', '/api/notes', '[{"title":"x"}]', json));
        expectInvalid(answer, '');
      });

      it('answers 400 BAD_REQUEST for a bare JSON string as a create body (strict JSON), and writes nothing', async () => {
        const answer = await rejectedWrite(() => send('POST', '/api/notes', '"x"', json));
        expectError(answer, 'BAD_REQUEST', 400);
      });

      it('answers 413 PAYLOAD_TOO_LARGE for a body above bodyLimit, and writes nothing', async () => {
        const small = await listen({ services: [service.shop], bodyLimit: 1024 });
        try {
          const within = await send('POST', '/api/notes', JSON.stringify({ title: 'fits', content: 'x'.repeat(900) }), json, small.url);
          expect(within.status).toBe(201);
          const answer = await rejectedWrite(() => send('POST', '/api/notes', JSON.stringify({ title: 'too big', content: 'x'.repeat(2000) }), json, small.url));
          expectError(answer, 'PAYLOAD_TOO_LARGE', 413);
        } finally {
          await small.close();
        }
      });

      it('rejects an id of the wrong type in the path with VALIDATION_ERROR', async () => {
        expectInvalid(await send('GET', '/api/items/abc', undefined, { 'x-test-user': JSON.stringify(ALICE) }), '/id');
        expectInvalid(await send('GET', '/api/items/1.5', undefined, { 'x-test-user': JSON.stringify(ALICE) }), '/id');
      });

      it('answers 404 NOT_FOUND for an unknown uuid in the path', async () => {
        expectError(await send('GET', `/api/notes/${UNKNOWN_UUID}`), 'NOT_FOUND', 404);
      });

      it('rejects an unknown query parameter on get, naming it', async () => {
        const note = await createNote('kept');
        expectInvalid(await send('GET', `/api/notes/${note.id}?limit=5`), '/limit', 'unknown input key `limit`');
      });

      it('answers the same VALIDATION_ERROR body over HTTP as in-process', async () => {
        const input = { where: { content: { eq: 'x' } } };
        const overHttp = await httpClient(server.url).call('notes', 'list', input);
        const inProcess = await inProcessClient(service).call('notes', 'list', input);
        expect(overHttp).toEqual(inProcess);
      });
    });
  });
}
