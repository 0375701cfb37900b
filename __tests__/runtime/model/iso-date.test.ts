// A Date's JSON form (runtime/model/iso-date.ts) is exactly toISOString's, for every date a column can hold: each
// millisecond width, four-digit years with leading zeros, the edges of the four-digit range, the six-digit years
// past it, and an invalid date, which throws as toISOString does.
import { isoDate } from '../../../runtime/model/iso-date';

const MS_PER_DAY = 86_400_000;

describe('isoDate', () => {
  it.each([
    '2026-11-27T13:35:00.000Z',
    '2026-01-01T00:00:00.007Z',
    '2026-12-31T23:59:59.042Z',
    '2024-02-29T12:00:00.999Z',
    '1970-01-01T00:00:00.000Z',
    '1969-12-31T23:59:59.999Z',
    '0000-01-01T00:00:00.000Z',
    '0009-03-04T05:06:07.008Z',
    '0999-12-31T23:59:59.100Z',
    '1000-01-01T00:00:00.010Z',
    '9999-12-31T23:59:59.999Z',
  ])('writes %s as toISOString does', (text) => {
    const date = new Date(text);
    expect(isoDate(date)).toBe(date.toISOString());
    expect(isoDate(date)).toBe(text);
  });

  it('writes the years past four digits and before year 0 as toISOString does', () => {
    for (const text of ['+010000-01-01T00:00:00.000Z', '-000001-12-31T23:59:59.999Z', '+275760-09-13T00:00:00.000Z', '-271821-04-20T00:00:00.000Z']) {
      expect(isoDate(new Date(text))).toBe(text);
    }
  });

  it('agrees with toISOString over every day of four centuries and every millisecond width', () => {
    const start = Date.UTC(1800, 0, 1);
    for (let day = 0; day < 146_097; day++) {
      const date = new Date(start + day * MS_PER_DAY + ((day * 7_919_993) % MS_PER_DAY));
      if (isoDate(date) !== date.toISOString()) throw new Error(`${isoDate(date)} is not ${date.toISOString()}`);
    }
  });

  it('throws on an invalid date, as toISOString does', () => {
    expect(() => isoDate(new Date(Number.NaN))).toThrow(RangeError);
  });
});
