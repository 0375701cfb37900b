// The patterns of numbers that travel as strings: a 64-bit integer's must accept exactly the values its column holds
// (compared here with BigInt over the edges and random values), a decimal's exactly plain decimal text.
import { atMostPattern, decimalTextSchema, int64TextSchema } from '../../../runtime/dialects/number-text';

const INT64_MAX = 2n ** 63n - 1n;
const INT64_MIN = -(2n ** 63n);
const UINT64_MAX = 2n ** 64n - 1n;

function matcher(schema: { pattern?: unknown }): (text: string) => boolean {
  const pattern = new RegExp(schema.pattern as string, 'u');
  return (text) => pattern.test(text);
}

/** Values near every power of ten and of two up to 2^65, both signs, and seeded pseudo-random ones of every length. */
function candidates(): bigint[] {
  const values = new Set<bigint>([0n, 1n, INT64_MAX, INT64_MIN, UINT64_MAX]);
  for (let exponent = 0n; exponent <= 21n; exponent++) for (const delta of [-1n, 0n, 1n]) values.add(10n ** exponent + delta);
  for (let exponent = 0n; exponent <= 65n; exponent++) for (const delta of [-1n, 0n, 1n]) values.add(2n ** exponent + delta);
  let seed = 12345n;
  for (let index = 0; index < 3000; index++) {
    seed = (seed * 6364136223846793005n + 1442695040888963407n) % 2n ** 64n;
    values.add(seed % 10n ** BigInt(1 + (index % 21)));
  }
  return [...values].flatMap((value) => [value, -value]);
}

describe('number text patterns', () => {
  it('atMostPattern matches exactly the integers from 0 to its bound, leading zeros allowed', () => {
    for (const bound of ['0', '1', '9', '10', '99', '100', '305', '9223372036854775807']) {
      const isMatch = (text: string) => new RegExp(`^${atMostPattern(bound)}$`, 'u').test(text);
      const max = BigInt(bound);
      for (let value = 0n; value <= 400n; value++) expect([bound, value, isMatch(String(value))]).toEqual([bound, value, value <= max]);
      expect(isMatch(`00${bound}`)).toBe(true);
      expect(isMatch(String(max + 1n))).toBe(false);
      expect(isMatch('')).toBe(false);
    }
  });

  it('a signed 64-bit column accepts exactly -2^63 to 2^63-1', () => {
    const isMatch = matcher(int64TextSchema(false));
    for (const value of candidates()) expect([value, isMatch(String(value))]).toEqual([value, value >= INT64_MIN && value <= INT64_MAX]);
    for (const text of ['', '-', '+1', '1.0', '1e3', ' 1', '0x10', '--1']) expect([text, isMatch(text)]).toEqual([text, false]);
  });

  it('an unsigned 64-bit column accepts exactly 0 to 2^64-1', () => {
    const isMatch = matcher(int64TextSchema(true));
    for (const value of candidates()) expect([value, isMatch(String(value))]).toEqual([value, value >= 0n && value <= UINT64_MAX]);
    expect(isMatch('-0')).toBe(false);
  });

  it('a decimal column accepts plain decimal text within its integer digits, and nothing else', () => {
    const bounded = matcher(decimalTextSchema(8));
    for (const text of ['0', '-12.50', '12345678', '12345678.999', '.5', '5.', '-0.001', '00012345678.5']) expect([text, bounded(text)]).toEqual([text, true]);
    for (const text of ['123456789', '-123456789.5', 'abc', '', '-', '.', '1e3', 'NaN', 'Infinity', '1,5', ' 1', '1.2.3', '+1']) {
      expect([text, bounded(text)]).toEqual([text, false]);
    }
    const unbounded = matcher(decimalTextSchema(null));
    expect(['1'.repeat(200), `-${'9'.repeat(50)}.${'1'.repeat(50)}`].map(unbounded)).toEqual([true, true]);
    expect(['1e400', 'NaN', '.'].map(unbounded)).toEqual([false, false, false]);
    const fractionOnly = matcher(decimalTextSchema(0));
    expect(['0.25', '.25', '-0.5', '0', '1', '1.5'].map(fractionOnly)).toEqual([true, true, true, true, false, false]);
  });
});
