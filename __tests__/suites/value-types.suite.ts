// CONTRACT §2 Row: values whose JSON form differs from the driver's travel as strings (bigint as a
// decimal string, binary as base64) and come back exactly, in writes, reads and filters.
import { forEachClient, useSuiteFixture, type SuiteRun } from '../helpers/suite-fixture';

/** Above 2^53: a JSON number would lose the last digit. */
const BIG = '9007199254740993';

export function valueTypesSuite(run: SuiteRun): void {
  describe('value types', () => {
    const fixture = useSuiteFixture(run);

    forEachClient(fixture, (client) => {
      it('writes, returns and filters a bigint as a decimal string, exactly', async () => {
        const created = await client.call('readings', 'create', { serial: BIG });
        expect(created.status).toBe(201);
        expect(created.body.serial).toBe(BIG);
        expect((await client.call('readings', 'get', { id: created.body.id })).body.serial).toBe(BIG);
        const found = await client.call('readings', 'list', { where: { serial: { in: [BIG, '-1'] } } });
        expect(found.body.items.map((row: { serial: string }) => row.serial)).toEqual([BIG]);
        // The unfiltered first page: compiled handlers answer it from a prepared statement with their own serializer.
        expect((await client.call('readings', 'list', {})).body.items.map((row: { serial: string }) => row.serial)).toEqual([BIG]);
      });

      it('refuses a bigint given as a JSON number or a non-decimal string', async () => {
        for (const serial of [12, '12.5', '0x1F', '']) {
          const answer = await client.call('readings', 'create', { serial });
          expect([serial, answer.status, answer.body.error?.details?.[0]?.path]).toEqual([serial, 400, '/serial']);
        }
      });

      if (run.dialect !== 'sqlite') {
        // A value the database would refuse is refused by the input's schema, naming its field (CONTRACT §4): the
        // database's own refusal names neither the field nor, in a batch, the row.
        it('refuses a bigint outside 64 bits and a decimal outside its column with the field in the path, and takes the edges', async () => {
          for (const serial of ['9223372036854775807', '-9223372036854775808']) {
            const created = await client.call('readings', 'create', { serial });
            expect([created.status, created.body.serial]).toEqual([201, serial]);
          }
          for (const serial of ['9223372036854775808', '-9223372036854775809', '99999999999999999999']) {
            const refused = await client.call('readings', 'create', { serial });
            expect([serial, refused.status, refused.body.error.details]).toEqual([
              serial,
              400,
              [{ path: '/serial', message: 'serial must be a whole number from -9223372036854775808 to 9223372036854775807, written as a string' }],
            ]);
            const filtered = await client.call('readings', 'list', { where: { serial: { eq: serial } } });
            expect([filtered.status, filtered.body.error.details[0].path]).toEqual([400, '/where/serial/eq']);
          }
          // amount is numeric(10, 2) / decimal(10, 2): eight digits before the point.
          const kept = await client.call('kinds', 'create', { label: 'edge', amount: '-12345678.25' });
          expect([kept.status, kept.body.amount]).toEqual([201, '-12345678.25']);
          for (const amount of ['123456789', 'abc', '1e3', 'NaN']) {
            const refused = await client.call('kinds', 'update', { id: kept.body.id, data: { amount } });
            expect([amount, refused.status, refused.body.error.details[0].path]).toEqual([amount, 400, '/data/amount']);
          }
          expect((await client.call('kinds', 'get', { id: kept.body.id })).body.amount).toBe('-12345678.25');
        });
      }

      it('keeps dates of every year from 1 to 9999 exactly, and refuses the ones a date column cannot hold, naming the field', async () => {
        // Years below 100 once came back from PostgreSQL as 1950 to 2049 (V8 read its text as a two-digit year).
        const dates = ['0001-01-01T00:00:00.000Z', '0050-06-15T12:30:00.500Z', '0099-12-31T23:59:59.999Z', '0999-03-04T05:06:07.008Z', '9999-12-31T23:59:59.999Z'];
        for (const takenAt of dates) {
          const created = await client.call('kinds', 'create', { label: takenAt, takenAt });
          expect([takenAt, created.status, created.body.takenAt]).toEqual([takenAt, 201, takenAt]);
          expect((await client.call('kinds', 'get', { id: created.body.id })).body.takenAt).toBe(takenAt);
        }
        const listed = await client.call('kinds', 'list', {});
        expect(listed.body.items.map((row: { label: string; takenAt: string }) => [row.label, row.takenAt])).toEqual(dates.map((date) => [date, date]));
        // A leap second (no Date holds it), a year 10000 once the offset is applied, the year 0 PostgreSQL does not have.
        for (const takenAt of ['2016-12-31T23:59:60Z', '9999-12-31T23:59:59-01:00', '0000-12-31T00:00:00Z']) {
          const refused = await client.call('kinds', 'create', { label: 'refused', takenAt });
          expect([takenAt, refused.status, refused.body.error?.details]).toEqual([
            takenAt,
            400,
            [{ path: '/takenAt', message: 'takenAt must be an RFC 3339 date-time from 0001-01-01 to 9999-12-31 in UTC, such as "2024-05-01T12:00:00Z"' }],
          ]);
        }
        expect((await client.call('kinds', 'count', {})).body).toEqual({ count: dates.length });
      });

      it('writes and reads back every column kind exactly, dates as ISO-8601, through create, get, list, update and delete', async () => {
        const sent: Record<string, unknown> = { label: 'all kinds', takenAt: '2024-02-03T04:05:06.789Z', valid: true, ratio: 0.125, meta: { tags: ['a', 'b'], n: 1 } };
        if (run.dialect === 'sqlite') sent.seenAt = '2024-02-03T04:05:06.000Z';
        else Object.assign(sent, { seenAt: '2024-02-03 04:05:06.789', day: '2024-02-03', amount: '12.50' });
        const created = await client.call('kinds', 'create', sent);
        expect(created).toMatchObject({ status: 201, body: { ...sent, id: expect.any(Number) } });
        const { id } = created.body;
        expect(await client.call('kinds', 'get', { id })).toMatchObject({ status: 200, body: created.body });
        expect((await client.call('kinds', 'list', {})).body.items).toEqual([created.body]);
        const empty = await client.call('kinds', 'create', { label: 'nulls' });
        expect(empty.body).toMatchObject({ label: 'nulls', takenAt: null, valid: null, ratio: null, meta: null });
        const changed = await client.call('kinds', 'update', { id, data: { valid: false, meta: null, takenAt: '2025-01-01T00:00:00.000Z' } });
        expect(changed.body).toEqual({ ...created.body, valid: false, meta: null, takenAt: '2025-01-01T00:00:00.000Z' });
        expect((await client.call('kinds', 'count', {})).body).toEqual({ count: 2 });
        expect((await client.call('kinds', 'exists', {})).body).toEqual({ exists: true });
        expect((await client.call('kinds', 'delete', { id })).body).toEqual({ success: true });
        expect((await client.call('kinds', 'get', { id })).status).toBe(404);
        expect((await client.call('kinds', 'delete', { id })).status).toBe(404);
      });

      if (run.dialect === 'sqlite') {
        // Drizzle 0.45 has a binary column type only for SQLite (blob in buffer mode).
        it('writes and returns binary as base64, byte for byte', async () => {
          const payload = Buffer.from([0, 1, 2, 250, 255, 10]).toString('base64');
          const created = await client.call('readings', 'create', { serial: '1', payload });
          expect(created.body.payload).toBe(payload);
          expect((await client.call('readings', 'get', { id: created.body.id })).body.payload).toBe(payload);
          expect((await client.call('readings', 'list', {})).body.items.map((row: { payload: string }) => row.payload)).toEqual([payload]);
          const invalid = await client.call('readings', 'create', { serial: '2', payload: 'not base64!' });
          expect(invalid.body.error.details).toEqual([{ path: '/payload', message: expect.stringContaining('must match pattern') }]);
        });
      }
    });
  });
}
