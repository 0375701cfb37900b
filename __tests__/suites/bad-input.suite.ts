// Bad input tried on purpose (CONTRACT §2 and §4): wrong types, unknown keys and policy violations in data,
// where, select, orderBy and ids each answer VALIDATION_ERROR (or NOT_FOUND) naming the input, and write nothing.
import type { Where } from 'tessera-api';
import { expectError, expectInvalid, rejectedWrite } from '../helpers/expectations';
import { forEachClient, seedNote, UNKNOWN_UUID, useSuiteFixture, type SuiteRun } from '../helpers/suite-fixture';
import { ALICE } from '../helpers/test-app';

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

export function badInputSuite(run: SuiteRun): void {
  describe('bad input', () => {
    const fixture = useSuiteFixture(run);

    forEachClient(fixture, (client) => {
      describe('wrong types and limits', () => {
        it('rejects a value of the wrong type in create data with VALIDATION_ERROR and writes nothing', async () => {
          const answer = await rejectedWrite(fixture.database, () => client.call('notes', 'create', { title: 5 }));
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
          const answer = await rejectedWrite(fixture.database, () => client.call('notes', 'create', { title: 'x', internal: 'sneaky' }));
          expectInvalid(answer, '/internal', 'field `internal` is not writable');
        });

        it('rejects an unknown field in create data, naming it, and writes nothing', async () => {
          const answer = await rejectedWrite(fixture.database, () => client.call('notes', 'create', { title: 'x', nope: 1 }));
          expectInvalid(answer, '/nope', 'field `nope` is not writable');
        });

        it('rejects create data missing a required column and writes nothing', async () => {
          const answer = await rejectedWrite(fixture.database, () => client.call('notes', 'create', { content: 'no title' }));
          expectInvalid(answer, '/title');
        });

        it('rejects a non-updatable field in update data and changes nothing', async () => {
          const note = await seedNote(fixture, 'kept', 'original');
          const answer = await rejectedWrite(fixture.database, () => client.call('notes', 'update', { id: note.id, data: { title: 'changed', internal: 'sneaky' } }));
          expectInvalid(answer, '/data/internal', 'field `internal` is not updatable');
        });

        it('rejects update with empty data and changes nothing', async () => {
          const note = await seedNote(fixture, 'kept');
          const answer = await rejectedWrite(fixture.database, () => client.call('notes', 'update', { id: note.id, data: {} }));
          expectInvalid(answer, '/data', 'at least one field');
        });

        it('rejects the primary key in update data and changes nothing', async () => {
          const note = await seedNote(fixture, 'kept');
          const answer = await rejectedWrite(fixture.database, () => client.call('notes', 'update', { id: note.id, data: { id: UNKNOWN_UUID } }));
          expectInvalid(answer, '/data/id', 'field `id` is not updatable');
        });

        it.each(['__proto__', 'constructor'])('rejects a `%s` key in create data with VALIDATION_ERROR, writes nothing and pollutes no prototype', async (key) => {
          const input = JSON.parse(`{"${key}": {"polluted": true}, "title": "x"}`);
          const answer = await rejectedWrite(fixture.database, () => client.call('notes', 'create', input));
          expectInvalid(answer, `/${key}`);
          expect(({} as any).polluted).toBeUndefined();
        });

        it.each(['__proto__', 'constructor'])('rejects a `%s` key in update data and in where with VALIDATION_ERROR', async (key) => {
          const note = await seedNote(fixture, 'kept');
          const data = JSON.parse(`{"${key}": {"polluted": true}, "title": "x"}`);
          expectInvalid(await rejectedWrite(fixture.database, () => client.call('notes', 'update', { id: note.id, data })), `/data/${key}`);
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

        it('rejects U+0000 in a contains / startsWith / endsWith pattern on every database (SQLite ended the pattern there)', async () => {
          for (const operator of ['contains', 'startsWith', 'endsWith']) {
            expectInvalid(await client.call('notes', 'list', { where: { title: { [operator]: 'a\u0000' } } }), `/where/title/${operator}`, 'must not contain the character U+0000');
          }
        });

        it('rejects `isNull: false` with VALIDATION_ERROR', async () => {
          expectInvalid(await client.call('notes', 'list', { where: { content: { isNull: false } } }), '/where/content/isNull');
        });

        it('rejects select of a hidden or unknown field with VALIDATION_ERROR', async () => {
          expectInvalid(await client.call('notes', 'list', { select: ['title', 'internal'] }), '/select/1', 'field `internal` is not readable');
          expectInvalid(await client.call('notes', 'findOne', { select: ['nope'] }), '/select/0', 'field `nope` is not readable');
          const note = await seedNote(fixture, 'kept');
          expectInvalid(await client.call('notes', 'get', { id: note.id, select: ['internal'] }), '/select/0', 'field `internal` is not readable');
        });

        it('rejects an empty select with VALIDATION_ERROR', async () => {
          expectInvalid(await client.call('notes', 'list', { select: [] }), '/select');
        });

        it('rejects orderBy on a field without sort: true with VALIDATION_ERROR', async () => {
          expectInvalid(await client.call('notes', 'list', { orderBy: [{ field: 'content' }] }), '/orderBy/0/field', 'field `content` cannot be sorted');
        });

        it('names the allowed directions for an unknown one', async () => {
          expectInvalid(await client.call('notes', 'list', { orderBy: [{ field: 'title', direction: 'down' }] }), '/orderBy/0/direction', 'orderBy.0.direction must be one of asc, desc');
        });

        it('says what a condition looks like when a field is given a bare value', async () => {
          expectInvalid(await client.call('notes', 'list', { where: { title: 'x' } }), '/where/title', 'where.title must be an object of operators such as { "eq": … }');
          expectInvalid(await client.call('notes', 'list', { where: { AND: { title: { eq: 'x' } } } }), '/where/AND', 'where.AND must be an array');
        });

        it('rejects more than 5 orderBy entries with VALIDATION_ERROR', async () => {
          const orderBy = Array.from({ length: 6 }, (_, index) => ({ field: index % 2 === 0 ? 'title' : 'id' }));
          expectInvalid(await client.call('notes', 'list', { orderBy }), '/orderBy');
          expect((await client.call('notes', 'list', { orderBy: orderBy.slice(0, 5) })).status).toBe(200);
        });
      });

      describe('ids', () => {
        it('rejects an id of the wrong type with VALIDATION_ERROR', async () => {
          expectInvalid(await client.call('items', 'get', { id: 'abc' }, { user: ALICE }), '/id');
          expectInvalid(await rejectedWrite(fixture.database, () => client.call('items', 'update', { id: 'abc', data: { name: 'n' } }, { user: ALICE })), '/id');
          expectInvalid(await rejectedWrite(fixture.database, () => client.call('items', 'delete', { id: 'abc' }, { user: ALICE })), '/id');
        });

        it('answers 404 NOT_FOUND for an unknown id on get, update and delete', async () => {
          await seedNote(fixture, 'kept');
          expectError(await client.call('notes', 'get', { id: UNKNOWN_UUID }), 'NOT_FOUND', 404);
          expectError(await rejectedWrite(fixture.database, () => client.call('notes', 'update', { id: UNKNOWN_UUID, data: { title: 'x' } })), 'NOT_FOUND', 404);
          expectError(await rejectedWrite(fixture.database, () => client.call('notes', 'delete', { id: UNKNOWN_UUID })), 'NOT_FOUND', 404);
        });
      });
    });
  });
}
