// CONTRACT §2: create and update answer the row as that request left it, whatever kind of key the table has
// (the client's, auto-increment, `$defaultFn`: issue 10) and however many requests write at once (issue 17), with
// the statement cache and without it. Concurrent answers arrive in any order, so those are not recorded for parity.
import type { ServerOptions } from 'tessera-api';
import { forEachClient, useSuiteFixture, type SuiteFixture, type SuiteRun } from '../helpers/suite-fixture';
import { httpClient, inProcessClient, type Answer, type Client } from '../helpers/test-app';

/** Issue 17's measurement: 64 concurrent PATCHes of one row. */
const CONCURRENT_UPDATES = 64;
const CONCURRENT_CREATES = 32;

const CACHE_SETTINGS: readonly [string, Omit<ServerOptions, 'services'>][] = [
  ['with the statement cache', {}],
  ['with statementCache: false', { statementCache: false }],
];

/** 0, 1, …, count - 1. */
function upTo(count: number): number[] {
  return Array.from({ length: count }, (_, index) => index);
}

/** How many answers do not carry what their request wrote (`answers[i]` answers request i), and the first of them. */
function mismatches(answers: Answer[], wrote: (index: number) => Record<string, unknown>): { count: number; first: string | null } {
  const wrong = answers.flatMap((answer, index) => {
    const expected = wrote(index);
    const isRight = answer.status < 300 && Object.entries(expected).every(([key, value]) => answer.body?.[key] === value);
    return isRight ? [] : [`request ${index} wrote ${JSON.stringify(expected)}, answered ${answer.status} ${JSON.stringify(answer.body)}`];
  });
  return { count: wrong.length, first: wrong[0] ?? null };
}

/** HTTP without the run's recording (answers of concurrent requests come in any order), and in-process in the generic run. */
function unrecordedClients(fixture: SuiteFixture): Client[] {
  const http = httpClient({ fetch: (path, init) => fetch(fixture.server.url + path, init) });
  return fixture.mode === 'generic' ? [http, { mode: 'in-process', call: (...args) => inProcessClient(fixture.service).call(...args) }] : [http];
}

export function writtenRowsSuite(run: SuiteRun): void {
  for (const [title, serverOptions] of CACHE_SETTINGS) {
    describe(`written rows ${title}`, () => {
      const fixture = useSuiteFixture(run, serverOptions);

      forEachClient(fixture, (client) => {
        it('create answers the row under the key the client sent (no auto-increment, no $defaultFn)', async () => {
          const created = await client.call('counters', 'create', { code: 'first', n: 1, label: 'one' });
          expect(created).toEqual({ status: 201, body: { code: 'first', n: 1, label: 'one' } });
          expect(await client.call('counters', 'get', { id: 'first' })).toEqual({ status: 200, body: created.body });
          expect(await fixture.database.raw('SELECT code, n, label FROM t_counters')).toEqual([{ code: 'first', n: 1, label: 'one' }]);
        });

        it('refuses a client key that is taken with CONFLICT, changing nothing', async () => {
          await client.call('counters', 'create', { code: 'taken', n: 1 });
          const again = await client.call('counters', 'create', { code: 'taken', n: 2 });
          expect(again.status).toBe(409);
          expect(again.body.error.code).toBe('CONFLICT');
          expect(await fixture.database.raw('SELECT code, n FROM t_counters')).toEqual([{ code: 'taken', n: 1 }]);
        });

        it('create answers the key the database assigned (auto-increment)', async () => {
          const first = await client.call('readings', 'create', { serial: '10' });
          const second = await client.call('readings', 'create', { serial: '20' });
          expect([first.status, second.status]).toEqual([201, 201]);
          expect([first.body, second.body]).toEqual([
            { id: 1, serial: '10', ...(fixture.dialect === 'sqlite' ? { payload: null } : {}) },
            { id: 2, serial: '20', ...(fixture.dialect === 'sqlite' ? { payload: null } : {}) },
          ]);
        });

        it('create answers the key its $defaultFn made', async () => {
          const created = await client.call('notes', 'create', { title: 'Keyed by the application' });
          expect(created.status).toBe(201);
          expect(created.body).toEqual({ id: expect.stringMatching(/^00000000-0000-4000-8000-[0-9a-f]{12}$/), title: 'Keyed by the application', content: null });
          expect(await client.call('notes', 'get', { id: created.body.id })).toEqual({ status: 200, body: created.body });
        });

        it('update answers the row under the client key as written, and NOT_FOUND for an unknown key', async () => {
          await client.call('counters', 'create', { code: 'kept', n: 1, label: 'before' });
          expect(await client.call('counters', 'update', { id: 'kept', data: { n: 2 } })).toEqual({ status: 200, body: { code: 'kept', n: 2, label: 'before' } });
          expect((await client.call('counters', 'update', { id: 'missing', data: { n: 2 } })).status).toBe(404);
        });
      });

      describe('concurrent writes', () => {
        for (const clientMode of fixture.mode === 'generic' ? (['http', 'in-process'] as const) : (['http'] as const)) {
          describe(clientMode === 'http' ? 'over HTTP' : 'in-process', () => {
            const client = (): Client => unrecordedClients(fixture).find((candidate) => candidate.mode === clientMode)!;

            it(`answers each of ${CONCURRENT_UPDATES} concurrent updates of one row with the value that request wrote (client key)`, async () => {
              await fixture.database.raw("INSERT INTO t_counters (code, n, label) VALUES ('shared', -1, 'shared')");
              const answers = await Promise.all(upTo(CONCURRENT_UPDATES).map((index) => client().call('counters', 'update', { id: 'shared', data: { n: index } })));
              const wrong = mismatches(answers, (index) => ({ code: 'shared', n: index, label: 'shared' }));
              expect(wrong).toEqual({ count: 0, first: null });
              const [stored] = (await fixture.database.raw("SELECT n FROM t_counters WHERE code = 'shared'")) as { n: number }[];
              expect(upTo(CONCURRENT_UPDATES)).toContain(stored.n);
            });

            it(`answers each of ${CONCURRENT_UPDATES} concurrent updates of one row with the value that request wrote ($defaultFn key)`, async () => {
              const note = (await fixture.service.notes.create({ input: { title: 'shared', content: 'kept' } })) as { id: string };
              const answers = await Promise.all(upTo(CONCURRENT_UPDATES).map((index) => client().call('notes', 'update', { id: note.id, data: { title: `title ${index}` } })));
              expect(mismatches(answers, (index) => ({ id: note.id, title: `title ${index}`, content: 'kept' }))).toEqual({ count: 0, first: null });
            });

            it(`answers each of ${CONCURRENT_CREATES} concurrent creates with the row that request created, for every kind of key`, async () => {
              const [counters, readings, notes] = await Promise.all([
                Promise.all(upTo(CONCURRENT_CREATES).map((index) => client().call('counters', 'create', { code: `c-${index}`, n: index }))),
                Promise.all(upTo(CONCURRENT_CREATES).map((index) => client().call('readings', 'create', { serial: String(1000 + index) }))),
                Promise.all(upTo(CONCURRENT_CREATES).map((index) => client().call('notes', 'create', { title: `note ${index}` }))),
              ]);
              expect(mismatches(counters, (index) => ({ code: `c-${index}`, n: index, label: null }))).toEqual({ count: 0, first: null });
              expect(mismatches(readings, (index) => ({ serial: String(1000 + index) }))).toEqual({ count: 0, first: null });
              expect(mismatches(notes, (index) => ({ title: `note ${index}`, content: null }))).toEqual({ count: 0, first: null });
              // Every answer names its own row: distinct keys, each stored with the values its request sent.
              expect(new Set(readings.map((answer) => answer.body.id)).size).toBe(CONCURRENT_CREATES);
              expect(new Set(notes.map((answer) => answer.body.id)).size).toBe(CONCURRENT_CREATES);
              const stored = (await fixture.database.raw('SELECT id, title FROM t_notes')) as { id: string; title: string }[];
              expect(new Map(stored.map((row) => [row.id, row.title]))).toEqual(new Map(notes.map((answer) => [answer.body.id, answer.body.title])));
            });

            it(`answers one of ${CONCURRENT_CREATES} concurrent creates of one client key 201 and the others CONFLICT`, async () => {
              const answers = await Promise.all(upTo(CONCURRENT_CREATES).map((index) => client().call('counters', 'create', { code: 'once', n: index })));
              const statuses = answers.map((answer) => answer.status).sort();
              expect(statuses).toEqual([201, ...Array(CONCURRENT_CREATES - 1).fill(409)]);
              const winner = answers.findIndex((answer) => answer.status === 201);
              expect(answers[winner].body).toEqual({ code: 'once', n: winner, label: null });
              expect(await fixture.database.raw('SELECT code, n FROM t_counters')).toEqual([{ code: 'once', n: winner }]);
            });
          });
        }
      });
    });
  }
}
