// A MySQL DATETIME read in date mode becomes its JSON text without a Date (runtime/dialects/mysql-datetime.ts): the
// text must be exactly what Drizzle's decoder and the date codec make of it, or null where only the Date can say.
import fc from 'fast-check';
import { datetime, mysqlTable, varchar } from 'drizzle-orm/mysql-core';
import { COLUMN_CODECS } from '../../../runtime/model/column-schema';
import { datetimeDecoder, isoFromDatetimeText } from '../../../runtime/dialects/mysql-datetime';

const table = mysqlTable('moments', {
  at: datetime('at', { mode: 'date', fsp: 3 }),
  text: datetime('text', { mode: 'string' }),
  label: varchar('label', { length: 20 }),
});

/** Drizzle's decoder, then the date codec: the JSON text a row gets, or the error it throws. */
function throughDate(text: string): string {
  try {
    return COLUMN_CODECS.date.encode(table.at.mapFromDriverValue(text)) as string;
  } catch (error) {
    return `throws ${(error as Error).name}`;
  }
}

const twoDigits = (max: number) => fc.integer({ min: 0, max }).map((value) => String(value).padStart(2, '0'));

/** DATETIME texts, in range and out of it (month 13, day 32, 24 o'clock, a zero date), with 0 to 7 fraction digits. */
const datetimeText = fc
  .tuple(
    fc.integer({ min: 0, max: 9999 }).map((year) => String(year).padStart(4, '0')),
    twoDigits(13),
    twoDigits(32),
    twoDigits(24),
    twoDigits(60),
    twoDigits(60),
    fc.option(fc.stringMatching(/^[0-9]{1,7}$/), { nil: undefined }),
  )
  .map(([year, month, day, hour, minute, second, fraction]) => `${year}-${month}-${day} ${hour}:${minute}:${second}${fraction === undefined ? '' : `.${fraction}`}`);

it('gives the text Drizzle and the date codec give, whenever it gives one', () => {
  fc.assert(
    fc.property(datetimeText, (text) => {
      const direct = isoFromDatetimeText(text);
      if (direct !== null) expect(direct).toBe(throughDate(text));
    }),
    { numRuns: 20_000 },
  );
});

it('gives one for every DATETIME MySQL stores, with any fraction it stores', () => {
  const stored = fc
    .date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true })
    .chain((date) => fc.integer({ min: 0, max: 6 }).map((fsp) => ({ date, fsp })));
  fc.assert(
    fc.property(stored, ({ date, fsp }) => {
      const whole = date.toISOString().slice(0, 19).replace('T', ' ');
      const text = fsp === 0 ? whole : `${whole}.${date.toISOString().slice(20, 23).padEnd(fsp, '7').slice(0, fsp)}`;
      expect(isoFromDatetimeText(text)).toBe(throughDate(text));
    }),
    { numRuns: 20_000 },
  );
});

it.each([
  ['a zero date (an invalid Date, whose codec throws)', '0000-00-00 00:00:00'],
  ['30 February (V8 rolls it into March)', '2026-02-30 10:00:00'],
  ['29 February of a year that is not a leap year', '2100-02-29 10:00:00'],
  ['24 o\'clock', '2026-01-01 24:00:00'],
  ['a text that is not a DATETIME', '2026-01-01T10:00:00'],
  ['a fraction of seven digits', '2026-01-01 10:00:00.1234567'],
  ['a dot without a fraction', '2026-01-01 10:00:00.'],
])('leaves %s to the Date', (_case, text) => {
  expect(isoFromDatetimeText(text)).toBeNull();
});

it('reads leap days, fractions of every length and the ends of the range as the Date does', () => {
  for (const text of ['2024-02-29 23:59:59', '2000-02-29 00:00:00', '1000-01-01 00:00:00', '9999-12-31 23:59:59.999999', '2026-11-25 08:50:00.1', '2026-11-25 08:50:00.12', '2026-11-25 08:50:00.1239']) {
    expect(isoFromDatetimeText(text)).toBe(throughDate(text));
  }
  expect(isoFromDatetimeText('2026-11-25 08:50:00.1239')).toBe('2026-11-25T08:50:00.123Z');
});

it('decodes only DATETIME columns in date mode with their own decoder; the rest keep Drizzle\'s', () => {
  const decode = datetimeDecoder(table.at)!;
  expect(decode('2026-11-25 08:50:00.123')).toBe('2026-11-25T08:50:00.123Z');
  // What only the Date can say is the Date's (its codec then fails on a zero date as before).
  expect(decode('2026-02-30 10:00:00')).toEqual(new Date('2026-03-02T10:00:00.000Z'));
  expect(datetimeDecoder(table.text)).toBeNull();
  expect(datetimeDecoder(table.label)).toBeNull();
  // A subclass with a decoder of its own keeps it.
  const custom = Object.create(table.at, { mapFromDriverValue: { value: (value: string) => `custom ${value}` } });
  expect(datetimeDecoder(custom)).toBeNull();
});
