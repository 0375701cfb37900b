// Numbers that travel as JSON strings (CONTRACT §2: a bigint as a decimal string; a numeric / decimal column's
// value as its text), bounded the way their column is: a value the schema lets through must be one the database
// stores, so that a value out of range is refused as VALIDATION_ERROR naming its field (`/items/2/total`), never by
// the database, whose refusal cannot say which field or row it was.
import type { JsonSchema } from '../json-schema';
import { MESSAGES_KEYWORD } from '../validation';

const INT64_MAX = '9223372036854775807';
const INT64_MIN_MAGNITUDE = '9223372036854775808';
const UINT64_MAX = '18446744073709551615';

/** `[0-9]` repeated `count` times, as a pattern. */
function digits(count: number): string {
  if (count === 0) return '';
  return count === 1 ? '[0-9]' : `[0-9]{${count}}`;
}

/**
 * A pattern (no anchors) for the decimal integers from 0 to `max` (a digit string without leading zeros), leading
 * zeros allowed: fewer digits than `max`, or as many, agreeing with `max` up to a smaller digit, or `max` itself.
 */
export function atMostPattern(max: string): string {
  const alternatives = max.length > 1 ? [`[0-9]{1,${max.length - 1}}`] : [];
  for (let index = 0; index < max.length; index++) {
    const digit = Number(max[index]);
    if (digit === 0) continue;
    const smaller = digit === 1 ? '0' : `[0-${digit - 1}]`;
    alternatives.push(max.slice(0, index) + smaller + digits(max.length - index - 1));
  }
  alternatives.push(max);
  return `0*(?:${alternatives.join('|')})`;
}

/** The schema of a 64-bit integer column's value in JSON: a decimal string within the column's range. */
export function int64TextSchema(isUnsigned: boolean): JsonSchema {
  const pattern = isUnsigned ? `^${atMostPattern(UINT64_MAX)}$` : `^(?:-?${atMostPattern(INT64_MAX)}|-${atMostPattern(INT64_MIN_MAGNITUDE)})$`;
  const range = isUnsigned ? `0 to ${UINT64_MAX}` : `-${INT64_MIN_MAGNITUDE} to ${INT64_MAX}`;
  return { type: 'string', pattern, maxLength: 20, [MESSAGES_KEYWORD]: { pattern: `{path} must be a whole number from ${range}, written as a string` } };
}

/**
 * The schema of a numeric / decimal column's value in JSON: a decimal number as a string (`-12.50`; no exponent, no
 * NaN), with at most `integerDigits` digits before the point where the column's precision and scale bound them (the
 * database rounds extra fraction digits to the scale; it refuses extra integer digits).
 */
export function decimalTextSchema(integerDigits: number | null): JsonSchema {
  // numeric(4, 4) holds no integer digit: only zeros may stand before its point.
  const whole = integerDigits === null ? '[0-9]+' : integerDigits === 0 ? '0+' : `0*[0-9]{1,${integerDigits}}`;
  const bound = integerDigits === null ? '' : `, at most ${integerDigits} digits before the point`;
  return {
    type: 'string',
    pattern: `^-?(?:${whole}(?:\\.[0-9]*)?|\\.[0-9]+)$`,
    [MESSAGES_KEYWORD]: { pattern: `{path} must be a decimal number written as a string, such as "-12.50"${bound}` },
  };
}

/** The digits a numeric(precision, scale) column holds before the point, or null when it declares no precision. */
export function integerDigitsOf(column: { precision?: number; scale?: number }): number | null {
  return typeof column.precision === 'number' ? column.precision - (column.scale ?? 0) : null;
}
