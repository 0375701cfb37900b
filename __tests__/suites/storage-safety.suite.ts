// What reaches the database and what comes back (CONTRACT §4): values travel as bound data, values a column
// cannot hold answer VALIDATION_ERROR, constraint and driver failures answer CONFLICT or INTERNAL_ERROR without leaks.
import { expectError, expectInvalid, rejectedWrite } from '../helpers/expectations';
import { forEachClient, seedNote, useSuiteFixture, type SuiteRun } from '../helpers/suite-fixture';
import { ALICE } from '../helpers/test-app';

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

export function storageSafetySuite(run: SuiteRun): void {
  const capacity = CAPACITY[run.dialect];

  describe('storage safety', () => {
    const logLines: string[] = [];
    const log = (line: string) => void logLines.push(line);
    const fixture = useSuiteFixture(run, { requestLogging: { logger: log }, errorLogger: log });

    async function rowCount(table: 't_notes' | 't_items'): Promise<number> {
      const [row] = (await fixture.database.raw(`SELECT COUNT(*) AS n FROM ${table}`)) as { n: unknown }[];
      return Number(row.n);
    }

    forEachClient(fixture, (client) => {
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
          for (const title of TITLES) await seedNote(fixture, title);
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
          const answer = await rejectedWrite(fixture.database, () => client.call('items', 'create', { name: 'too large', price: capacity.tooLargeInt }, { user: ALICE }));
          expectInvalid(answer, '/price');
        });

        it('rejects an integer beyond the column range as a filter value and as an id with VALIDATION_ERROR', async () => {
          expectInvalid(await client.call('items', 'count', { where: { price: { gt: capacity.tooLargeInt } } }, { user: ALICE }), '/where/price/gt');
          expectInvalid(await client.call('items', 'get', { id: capacity.tooLargeInt }, { user: ALICE }), '/id');
        });

        it('stores a NUL character verbatim, or answers VALIDATION_ERROR where the database cannot hold one (postgres)', async () => {
          const title = 'nul\u0000inside';
          const created = await (capacity.holdsNul ? client.call('notes', 'create', { title }) : rejectedWrite(fixture.database, () => client.call('notes', 'create', { title })));
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
              expectError(await rejectedWrite(fixture.database, () => client.call('notes', 'create', { title: 'too long', content })), 'VALIDATION_ERROR', 400);
            }
          }
        });
      });

      describe('database errors', () => {
        it('answers 500 INTERNAL_ERROR with no SQL, no stack and no value when the database fails', async () => {
          logLines.length = 0;
          await fixture.database.raw('DROP TABLE t_notes');
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
            await fixture.database.reset();
          }
        });

        it('answers 409 CONFLICT for a unique violation, without the duplicated value, and writes nothing', async () => {
          const first = await client.call('items', 'create', { name: 'Unique Widget', price: 1 }, { user: ALICE });
          expect(first.status).toBe(201);
          const answer = await rejectedWrite(fixture.database, () => client.call('items', 'create', { name: 'Unique Widget', price: 2 }, { user: ALICE }));
          expectError(answer, 'CONFLICT', 409);
          expect(answer.body.error.message).not.toContain('Unique Widget');
          expect(answer.body.error.details).toBeUndefined();
          expect(await rowCount('t_items')).toBe(1);
        });

        it('answers 409 CONFLICT when an update would duplicate a unique value, and changes nothing', async () => {
          await client.call('items', 'create', { name: 'Taken' }, { user: ALICE });
          const other = await client.call('items', 'create', { name: 'Free' }, { user: ALICE });
          const answer = await rejectedWrite(fixture.database, () => client.call('items', 'update', { id: other.body.id, data: { name: 'Taken' } }, { user: ALICE }));
          expectError(answer, 'CONFLICT', 409);
          expect(answer.body.error.message).not.toContain('Taken');
        });

        it('answers 409 CONFLICT for a foreign-key violation and writes nothing', async () => {
          const answer = await rejectedWrite(fixture.database, () => client.call('items', 'create', { name: 'Orphan', categoryId: 999999 }, { user: ALICE }));
          expectError(answer, 'CONFLICT', 409);
          expect(answer.body.error.message).not.toContain('999999');
          expect(await rowCount('t_items')).toBe(0);
        });
      });
    });
  });
}
