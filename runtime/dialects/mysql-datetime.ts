// A MySQL DATETIME column read in Drizzle's `mode: 'date'` goes from MariaDB's text (`2026-11-20 12:34:56.789`) to a
// Date (Drizzle's decoder) and back to text (the row's JSON, CONTRACT §2: ISO-8601), two conversions per value and
// 6% of a newest-first list's CPU (issue 18). Rows of Tessera's statements are only ever serialized, and the date
// codec passes an ISO string through, so the text becomes the ISO string directly: the same characters the Date
// would give, checked value by value; anything else (a zero date, a day the month does not have) takes the Date.
import { entityKind, type Column } from 'drizzle-orm';
import { MySqlDateTime } from 'drizzle-orm/mysql-core';
import { drizzlePrototype } from '../drizzle-kinds';

/** Where `YYYY-MM-DD hh:mm:ss` has digits, and what stands between them. */
const DIGIT_POSITIONS = [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18];
const SEPARATORS: readonly (readonly [number, string])[] = [[4, '-'], [7, '-'], [10, ' '], [13, ':'], [16, ':'], [19, '.']];
/** The text without a fraction, and with the longest (six digits, microseconds). */
const SHORTEST = 19;
const LONGEST = 26;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isDigit(text: string, at: number): boolean {
  const code = text.charCodeAt(at);
  return code >= 48 && code <= 57;
}

/** The number written at `at` in `digits` digits (all checked to be digits). */
function numberAt(text: string, at: number, digits: number): number {
  let value = 0;
  for (let index = at; index < at + digits; index++) value = value * 10 + text.charCodeAt(index) - 48;
  return value;
}

function daysIn(year: number, month: number): number {
  const leap = month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return DAYS_IN_MONTH[month - 1] + (leap ? 1 : 0);
}

/**
 * The ISO-8601 text `new Date(text.replace(' ', 'T') + 'Z').toISOString()` gives (Drizzle's decoder, then the
 * date codec), or null when `text` is not a DATETIME whose parts are all in range: V8 rolls a 30 February over
 * into March and answers a zero date with an invalid Date, which only the Date itself reproduces. Read by
 * character positions: a regular expression made this conversion twice as slow.
 */
export function isoFromDatetimeText(text: string): string | null {
  const length = text.length;
  if (length !== SHORTEST && (length < SHORTEST + 2 || length > LONGEST)) return null;
  for (const at of DIGIT_POSITIONS) if (!isDigit(text, at)) return null;
  for (const [at, separator] of SEPARATORS) if (at < length && text[at] !== separator) return null;
  for (let at = SHORTEST + 1; at < length; at++) if (!isDigit(text, at)) return null;
  const month = numberAt(text, 5, 2);
  const day = numberAt(text, 8, 2);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(numberAt(text, 0, 4), month)) return null;
  if (numberAt(text, 11, 2) > 23 || numberAt(text, 14, 2) > 59 || numberAt(text, 17, 2) > 59) return null;
  // A Date keeps milliseconds: shorter fractions are read as tenths or hundredths, longer ones are cut.
  const fraction = length === SHORTEST ? '.000' : text.slice(SHORTEST, SHORTEST + 4).padEnd(4, '0');
  return `${text.slice(0, 10)}T${text.slice(11, SHORTEST)}${fraction}Z`;
}

/**
 * The decoder a cached select gives `column`'s driver values: the ISO text for a DATETIME in date mode whose decoder
 * is Drizzle's own (a subclass may decode otherwise), else null (Drizzle's decoder).
 */
export function datetimeDecoder(column: Column): ((value: unknown) => unknown) | null {
  // MySqlDateTime of the Drizzle copy that made the column (drizzle-kinds.ts), so an ES module application's tables qualify.
  const own = drizzlePrototype(column, MySqlDateTime[entityKind]);
  if (own === null || column.mapFromDriverValue !== own.mapFromDriverValue) return null;
  return (value) => (typeof value === 'string' ? isoFromDatetimeText(value) : null) ?? column.mapFromDriverValue(value as string);
}
