// CONTRACT §10, optimistic concurrency: get, create, update and upsert answer a strong ETag computed from the row's
// stored values and, where a scrub changed it, the body (one per representation); If-None-Match on get answers 304; If-Match on update, upsert and delete answers 412
// PRECONDITION_FAILED when the row changed, checked atomically with the write (two writers with one ETag: one wins).
import { etagOf, TesseraError } from 'tessera-api';
import { useSuiteFixture, type SuiteRun } from '../helpers/suite-fixture';
import { ADMIN, ALICE, BOB } from '../helpers/test-app';

const JSON_BODY = { 'content-type': 'application/json' };
const ROUNDS = 8;

export function concurrencySuite(run: SuiteRun): void {
  describe('ETags and If-Match (CONTRACT §10)', () => {
    const fixture = useSuiteFixture(run);
    const send = (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
      fixture.server.fetch(path, { method, headers: body === undefined ? headers : { ...JSON_BODY, ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });

    it('answers the same strong ETag for the same row from create, get and update, and a new one when it changes', async () => {
      const created = await send('POST', '/api/counters', { code: 'e', n: 1 });
      const etag = created.headers.get('etag');
      expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
      expect((await send('GET', '/api/counters/e')).headers.get('etag')).toBe(etag);
      const changed = await send('PATCH', '/api/counters/e', { n: 2 });
      expect(changed.headers.get('etag')).not.toBe(etag);
      expect((await send('GET', '/api/counters/e')).headers.get('etag')).toBe(changed.headers.get('etag'));
      // Back to the stored values of before: the ETag of before.
      expect((await send('PATCH', '/api/counters/e', { n: 1 })).headers.get('etag')).toBe(etag);
      // A row narrowed by select is not the whole row: no ETag. Neither has a list.
      expect((await send('GET', '/api/counters/e?select=code')).headers.get('etag')).toBeNull();
      expect((await send('POST', '/api/counters/query', {})).headers.get('etag')).toBeNull();
    });

    it('answers 304 without a body to a get whose If-None-Match names the current ETag', async () => {
      const etag = (await send('POST', '/api/counters', { code: 'e', n: 1 })).headers.get('etag')!;
      const fresh = await send('GET', '/api/counters/e', undefined, { 'if-none-match': etag });
      expect([fresh.status, await fresh.text()]).toEqual([304, '']);
      const stale = await send('GET', '/api/counters/e', undefined, { 'if-none-match': '"stale"' });
      expect([stale.status, await stale.json()]).toEqual([200, { code: 'e', n: 1, label: null }]);
    });

    it('writes with a current If-Match, refuses a stale one with 412 PRECONDITION_FAILED and writes nothing', async () => {
      const etag = (await send('POST', '/api/counters', { code: 'e', n: 1 })).headers.get('etag')!;
      const updated = await send('PATCH', '/api/counters/e', { n: 2 }, { 'if-match': etag });
      expect([updated.status, await updated.json()]).toEqual([200, { code: 'e', n: 2, label: null }]);
      for (const [method, body] of [['PATCH', { n: 3 }], ['PUT', { n: 3 }], ['DELETE', undefined]] as const) {
        const stale = await send(method, '/api/counters/e', body, { 'if-match': etag });
        expect([method, stale.status, ((await stale.json()) as any).error.code]).toEqual([method, 412, 'PRECONDITION_FAILED']);
      }
      expect(await fixture.database.raw('SELECT code, n FROM t_counters')).toEqual([{ code: 'e', n: 2 }]);
      const current = updated.headers.get('etag')!;
      expect((await send('PUT', '/api/counters/e', { n: 4 }, { 'if-match': `"other", ${current}` })).status).toBe(200);
      expect((await send('DELETE', '/api/counters/e', undefined, { 'if-match': '*' })).status).toBe(200);
      // If-Match on a row that does not exist: upsert creates nothing, update and delete answer 404 as without it.
      expect((await send('PUT', '/api/counters/e', { n: 5 }, { 'if-match': '*' })).status).toBe(412);
      expect((await send('PATCH', '/api/counters/e', { n: 5 }, { 'if-match': '*' })).status).toBe(404);
      expect(await fixture.database.raw('SELECT code FROM t_counters')).toEqual([]);
    });

    it('refuses an If-Match header it cannot hold in the header\'s words (the input\'s /ifMatch), and writes nothing', async () => {
      await send('POST', '/api/counters', { code: 'e', n: 1 });
      const message = 'the If-Match header must have 1 to 1024 characters: an ETag, a comma-separated list of ETags, or *';
      for (const ifMatch of [`"${'a'.repeat(1023)}"`, '']) {
        for (const [method, body] of [['PATCH', { n: 3 }], ['PUT', { n: 3 }], ['DELETE', undefined]] as const) {
          const refused = await send(method, '/api/counters/e', body, { 'if-match': ifMatch });
          expect([method, refused.status, await refused.json()]).toEqual([method, 400, { error: { code: 'VALIDATION_ERROR', message, details: [{ path: '/ifMatch', message }] } }]);
        }
      }
      expect(await fixture.database.raw('SELECT code, n FROM t_counters')).toEqual([{ code: 'e', n: 1 }]);
    });

    it('checks If-Match inside the scope: a row of another user is missing (404), whatever the ETag', async () => {
      const asAlice = { 'x-test-user': JSON.stringify({ user: ALICE }) };
      const asBob = { 'x-test-user': JSON.stringify({ user: BOB }) };
      const created = await send('POST', '/api/items', { name: 'Mine', price: 1 }, asAlice);
      const createdBody = (await created.json()) as { id: number };
      expect([created.status, createdBody]).toEqual([201, expect.objectContaining({ name: 'Mine' })]);
      const { id } = createdBody;
      const etag = created.headers.get('etag')!;
      expect((await send('GET', `/api/items/${id}`, undefined, asAlice)).headers.get('etag')).toBe(etag);
      const bobs = await send('PATCH', `/api/items/${id}`, { price: 2 }, { ...asBob, 'if-match': etag });
      expect(bobs.status).toBe(404);
      expect((await send('PATCH', `/api/items/${id}`, { price: 2 }, { ...asAlice, 'if-match': etag })).status).toBe(200);
    });

    it('gives each representation of a row its own ETag: If-None-Match never answers 304 for a body the caller would not get', async () => {
      // items.email is scrubbed for members: alice sees "hidden" where the admin sees the address.
      const asAlice = { 'x-test-user': JSON.stringify({ user: ALICE }) };
      const asAdmin = { 'x-test-user': JSON.stringify({ user: ADMIN }) };
      const created = await send('POST', '/api/items', { name: 'Mail', email: 'alice@example.com' }, asAlice);
      const { id } = (await created.json()) as { id: number };
      const member = created.headers.get('etag')!;
      const admin = (await send('GET', `/api/items/${id}`, undefined, asAdmin)).headers.get('etag')!;
      expect(member).not.toBe(admin);
      // A browser revalidating alice's fetch with the admin's cached ETag gets alice's body, and the reverse.
      const revalidated = await send('GET', `/api/items/${id}`, undefined, { ...asAlice, 'if-none-match': admin });
      expect([revalidated.status, ((await revalidated.json()) as any).email]).toEqual([200, 'hidden']);
      const adminRevalidated = await send('GET', `/api/items/${id}`, undefined, { ...asAdmin, 'if-none-match': member });
      expect([adminRevalidated.status, ((await adminRevalidated.json()) as any).email]).toEqual([200, 'alice@example.com']);
      // Each caller's own ETag: the same from create, get, update and upsert, and 304 while it is current.
      expect((await send('GET', `/api/items/${id}`, undefined, asAlice)).headers.get('etag')).toBe(member);
      expect((await send('GET', `/api/items/${id}`, undefined, { ...asAlice, 'if-none-match': member })).status).toBe(304);
      expect((await send('GET', `/api/items/${id}`, undefined, { ...asAdmin, 'if-none-match': admin })).status).toBe(304);
      const updated = await send('PATCH', `/api/items/${id}`, { price: 2 }, asAlice);
      expect((await send('GET', `/api/items/${id}`, undefined, asAlice)).headers.get('etag')).toBe(updated.headers.get('etag'));
      const upserted = await send('PUT', `/api/items/${id}`, { name: 'Mail', price: 3 }, asAlice);
      expect((await send('GET', `/api/items/${id}`, undefined, asAlice)).headers.get('etag')).toBe(upserted.headers.get('etag'));
    });

    it("takes in If-Match the ETag of any caller's answer of the current row, and refuses it once a field the caller sees scrubbed changed", async () => {
      const asAlice = { 'x-test-user': JSON.stringify({ user: ALICE }) };
      const asAdmin = { 'x-test-user': JSON.stringify({ user: ADMIN }) };
      const created = await send('POST', '/api/items', { name: 'Mail', email: 'alice@example.com' }, asAlice);
      const { id } = (await created.json()) as { id: number };
      const admin = (await send('GET', `/api/items/${id}`, undefined, asAdmin)).headers.get('etag')!;
      expect(created.headers.get('etag')).not.toBe(admin);
      const updated = await send('PATCH', `/api/items/${id}`, { price: 2 }, { ...asAlice, 'if-match': created.headers.get('etag')! });
      expect(updated.status).toBe(200);
      const member = updated.headers.get('etag')!;
      // The admin changes the email, which alice sees as "hidden" before and after: her body is the same, her ETag stale.
      expect((await send('PATCH', `/api/items/${id}`, { email: 'new@example.com' }, asAdmin)).status).toBe(200);
      const after = await send('GET', `/api/items/${id}`, undefined, { ...asAlice, 'if-none-match': member });
      expect([after.status, ((await after.json()) as any).email]).toEqual([200, 'hidden']);
      for (const [method, body] of [['PATCH', { price: 3 }], ['PUT', { name: 'Mail', price: 3 }]] as const) {
        expect([method, (await send(method, `/api/items/${id}`, body, { ...asAlice, 'if-match': member })).status]).toEqual([method, 412]);
      }
      expect((await send('DELETE', `/api/items/${id}`, undefined, { ...asAdmin, 'if-match': member })).status).toBe(412);
      expect(await fixture.database.raw(`SELECT price FROM t_items WHERE id = ${id}`)).toEqual([{ price: 2 }]);
      expect((await send('DELETE', `/api/items/${id}`, undefined, { ...asAdmin, 'if-match': after.headers.get('etag')! })).status).toBe(200);
    });

    it('lets exactly one of two updates holding the same ETag through, the other 412', async () => {
      await send('POST', '/api/counters', { code: 'race', n: 0 });
      for (let round = 1; round <= ROUNDS; round++) {
        // Unrecorded: which of the two wins differs from run to run.
        const etag = (await fetch(`${fixture.server.url}/api/counters/race`)).headers.get('etag')!;
        const attempt = (n: number) =>
          fetch(`${fixture.server.url}/api/counters/race`, { method: 'PATCH', headers: { ...JSON_BODY, 'if-match': etag }, body: JSON.stringify({ n }) });
        const answers = await Promise.all([attempt(round * 10 + 1), attempt(round * 10 + 2)]);
        expect(answers.map((answer) => answer.status).sort()).toEqual([200, 412]);
        const winner = (await answers.find((answer) => answer.status === 200)!.json()) as { n: number };
        expect(await fixture.database.raw("SELECT n FROM t_counters WHERE code = 'race'")).toEqual([{ n: winner.n }]);
      }
    });

    it('answers two upserts racing to create one key without a 5xx: one creates it, the other updates it or is a CONFLICT', async () => {
      for (let round = 1; round <= ROUNDS; round++) {
        // Unrecorded: which of the two wins differs from run to run.
        const attempt = (n: number) => fetch(`${fixture.server.url}/api/counters/new${round}`, { method: 'PUT', headers: JSON_BODY, body: JSON.stringify({ n }) });
        const answers = await Promise.all([attempt(1), attempt(2)]);
        const statuses = answers.map((answer) => answer.status).sort();
        expect([[200, 201], [201, 409]]).toContainEqual(statuses);
        const rows = (await fixture.database.raw(`SELECT n FROM t_counters WHERE code = 'new${round}'`)) as { n: number }[];
        expect(rows).toHaveLength(1);
        expect([1, 2]).toContain(rows[0].n);
      }
    });

    if (run.mode === 'generic') {
      it('takes ifMatch in-process, with the ETag etagOf gives for an answered row', async () => {
        const counters = fixture.service.counters;
        const created = await counters.create({ input: { code: 'p', n: 1 } });
        const etag = etagOf(created)!;
        expect(etag).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
        expect(etagOf(await counters.get({ input: { id: 'p' } }))).toBe(etag);
        const updated = await counters.update({ input: { id: 'p', data: { n: 2 }, ifMatch: etag } });
        await expect(counters.update({ input: { id: 'p', data: { n: 3 }, ifMatch: etag } })).rejects.toMatchObject({ code: 'PRECONDITION_FAILED', status: 412 });
        await expect(counters.delete({ input: { id: 'p', ifMatch: etag } })).rejects.toBeInstanceOf(TesseraError);
        expect(await counters.delete({ input: { id: 'p', ifMatch: etagOf(updated)! } })).toEqual({ success: true });
      });

      it('gives in-process callers who see a row differently different ETags, each good for ifMatch', async () => {
        const items = fixture.service.items;
        const created = await items.create({ input: { name: 'Mail', email: 'alice@example.com' }, ctx: { user: ALICE } });
        const admin = etagOf(await items.get({ input: { id: created.id as number }, ctx: { user: ADMIN } }))!;
        expect(etagOf(await items.get({ input: { id: created.id as number }, ctx: { user: ALICE } }))).toBe(etagOf(created));
        expect(etagOf(created)).not.toBe(admin);
        expect(await items.update({ input: { id: created.id as number, data: { price: 1 }, ifMatch: admin }, ctx: { user: ALICE } })).toMatchObject({ price: 1 });
      });
    }
  });
}
