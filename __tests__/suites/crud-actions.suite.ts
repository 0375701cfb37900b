// CONTRACT §2 for one row at a time: create, get, update and delete answer their documented rows and
// codes, over HTTP and in-process alike (the list side lives in queries.suite.ts).
import { createNotes, forEachClient, useSuiteFixture, type SuiteRun } from '../helpers/suite-fixture';
import { TEST_EPOCH } from '../helpers/schemas/test-defaults';
import { ALICE } from '../helpers/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function crudActionsSuite(run: SuiteRun): void {
  describe('crud actions', () => {
    const fixture = useSuiteFixture(run);

    forEachClient(fixture, (client) => {
      describe('create', () => {
        it('answers 201 with the created row: readable fields only, app-generated UUID key', async () => {
          const answer = await client.call('notes', 'create', { title: 'First', content: 'Body' });
          expect(answer.status).toBe(201);
          expect(Object.keys(answer.body)).toEqual(['id', 'title', 'content']);
          expect(answer.body).toMatchObject({ title: 'First', content: 'Body' });
          expect(answer.body.id).toMatch(UUID);
          const stored = await fixture.database.raw(`SELECT title, content FROM t_notes`);
          expect(stored).toEqual([{ title: 'First', content: 'Body' }]);
        });

        it('accepts an optional column left out or null', async () => {
          const answer = await client.call('notes', 'create', { title: 'No content' });
          expect(answer.body.content).toBeNull();
          expect((await client.call('notes', 'create', { title: 'Null content', content: null })).status).toBe(201);
        });

        it('refuses a missing required column with VALIDATION_ERROR naming it', async () => {
          const answer = await client.call('notes', 'create', { content: 'no title' });
          expect(answer.status).toBe(400);
          expect(answer.body.error.code).toBe('VALIDATION_ERROR');
          expect(answer.body.error.details).toEqual([{ path: '/title', message: 'title is required' }]);
          expect(await fixture.database.raw('SELECT id FROM t_notes')).toEqual([]);
        });

        it('refuses a hidden column as not writable, never dropping it silently', async () => {
          const answer = await client.call('notes', 'create', { title: 'x', internal: 'sneaky' });
          expect(answer.status).toBe(400);
          expect(answer.body.error.details).toEqual([{ path: '/internal', message: 'field `internal` is not writable' }]);
          expect(await fixture.database.raw('SELECT id FROM t_notes')).toEqual([]);
        });

        it('refuses a readable but not creatable column (the primary key here)', async () => {
          const answer = await client.call('notes', 'create', { title: 'x', id: 'chosen' });
          expect(answer.status).toBe(400);
          expect(answer.body.error.details[0].path).toBe('/id');
        });

        it('returns dates as ISO-8601 strings and booleans and numbers as JSON', async () => {
          const answer = await client.call('items', 'create', { name: 'Lamp', price: 30, rating: 4.5, active: false }, { user: ALICE });
          expect(answer.status).toBe(201);
          expect(answer.body).toMatchObject({ name: 'Lamp', price: 30, rating: 4.5, active: false, ownerId: 'alice', categoryId: null });
          expect(answer.body.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
          // The column's $defaultFn read the test clock once: its first instant comes back exactly.
          expect(answer.body.createdAt).toBe(new Date(TEST_EPOCH).toISOString());
        });
      });

      describe('get', () => {
        it('answers the row by id, and NOT_FOUND for an unknown id', async () => {
          const [note] = await createNotes(client, ['Read me', 'text']);
          const answer = await client.call('notes', 'get', { id: note.id });
          expect(answer).toEqual({ status: 200, body: note });
          const missing = await client.call('notes', 'get', { id: '00000000-0000-0000-0000-000000000000' });
          expect(missing.status).toBe(404);
          expect(missing.body.error.code).toBe('NOT_FOUND');
        });

        it('narrows the row with select', async () => {
          const [note] = await createNotes(client, ['Read me', 'text']);
          const answer = await client.call('notes', 'get', { id: note.id, select: ['title'] });
          expect(answer.body).toEqual({ title: 'Read me' });
        });

        it('never returns a hidden column, even when it holds a value', async () => {
          const [note] = await createNotes(client, 'Has internal');
          await fixture.database.raw(`UPDATE t_notes SET internal = 'secret-value'`);
          const answer = await client.call('notes', 'get', { id: note.id });
          expect(answer.body).not.toHaveProperty('internal');
          expect(JSON.stringify(answer.body)).not.toContain('secret-value');
        });

        it('takes an integer id for an integer key', async () => {
          const created = await client.call('items', 'create', { name: 'Desk' }, { user: ALICE });
          const answer = await client.call('items', 'get', { id: created.body.id }, { user: ALICE });
          expect(answer.body.name).toBe('Desk');
        });
      });

      describe('update', () => {
        it('answers the updated row and changes only the given fields', async () => {
          const [note] = await createNotes(client, ['Old', 'keep']);
          const answer = await client.call('notes', 'update', { id: note.id, data: { title: 'New' } });
          expect(answer).toEqual({ status: 200, body: { id: note.id, title: 'New', content: 'keep' } });
        });

        it('answers NOT_FOUND for an unknown id and refuses empty data', async () => {
          const missing = await client.call('notes', 'update', { id: '00000000-0000-0000-0000-000000000000', data: { title: 'x' } });
          expect(missing.status).toBe(404);
          const [note] = await createNotes(client, 'Stay');
          const empty = await client.call('notes', 'update', { id: note.id, data: {} });
          expect(empty.status).toBe(400);
          expect(empty.body.error.code).toBe('VALIDATION_ERROR');
        });

        it('refuses the primary key and hidden columns in data', async () => {
          const [note] = await createNotes(client, 'Stay');
          const key = await client.call('notes', 'update', { id: note.id, data: { id: 'other' } });
          expect(key.body.error.details).toEqual([{ path: '/data/id', message: 'field `id` is not updatable' }]);
          const hidden = await client.call('notes', 'update', { id: note.id, data: { internal: 'x' } });
          expect(hidden.body.error.details).toEqual([{ path: '/data/internal', message: 'field `internal` is not updatable' }]);
          expect((await client.call('notes', 'get', { id: note.id })).body.title).toBe('Stay');
        });
      });

      describe('delete', () => {
        it('answers { success: true }, after which the row is gone', async () => {
          const [note] = await createNotes(client, 'Bye');
          expect(await client.call('notes', 'delete', { id: note.id })).toEqual({ status: 200, body: { success: true } });
          expect((await client.call('notes', 'get', { id: note.id })).status).toBe(404);
          expect((await client.call('notes', 'delete', { id: note.id })).status).toBe(404);
        });
      });
    });
  });
}
