// A PostgreSQL timestamp read in Drizzle's `mode: 'date'` arrives as PostgreSQL's text (`2026-11-20 12:34:56.789+00`)
// and Drizzle's decoder hands it to `new Date(text)`. That text is not ISO-8601 (a space, not a `T`), so V8 reads it
// with its legacy parser, which takes a year below 100 for a two-digit year: 0001-01-01 came back as 2001, 0050 as
// 1950. Tessera's own statements decode such a column here instead: the years 1000 to 9999 as Drizzle does (the
// legacy parser reads them right, and this is every row of nearly every table), any other text field by field.
import { entityKind, type Column } from 'drizzle-orm';
import { PgTimestamp } from 'drizzle-orm/pg-core';
import { drizzlePrototype } from '../drizzle-kinds';

/** PostgreSQL's ISO DateStyle: date, time, a fraction of up to six digits, an offset (timestamptz) and ` BC`. */
const TIMESTAMP_TEXT = /^(\d{4,})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?(?:([+-])(\d\d)(?::(\d\d))?(?::(\d\d))?)?( BC)?$/;

/** Whether Drizzle's `new Date(text)` reads `text` right: a year of four digits from 1000, not BC. */
function isPlainYear(text: string): boolean {
  return text.length > 4 && text.charCodeAt(4) === 45 /* - */ && text.charCodeAt(0) !== 48 /* 0 */ && !text.endsWith(' BC');
}

/**
 * The instant PostgreSQL's timestamp text names, or null for text of another form (`infinity`): timestamptz text
 * carries its offset, timestamp text has none and is read as UTC, as Drizzle reads it.
 */
export function dateFromTimestampText(text: string): Date | null {
  const parts = TIMESTAMP_TEXT.exec(text);
  if (parts === null) return null;
  const [, year, month, day, hours, minutes, seconds, fraction = '', sign, offsetHours = '0', offsetMinutes = '0', offsetSeconds = '0', bc] = parts;
  // ISO years count a year 0: 1 BC is year 0, 2 BC year -1.
  const isoYear = bc === undefined ? Number(year) : 1 - Number(year);
  const date = new Date(0);
  // setUTCFullYear takes the year as written (Date.UTC would read 0 to 99 as 1900 to 1999).
  date.setUTCFullYear(isoYear, Number(month) - 1, Number(day));
  date.setUTCHours(Number(hours), Number(minutes), Number(seconds), Number(fraction.padEnd(3, '0').slice(0, 3)));
  const offset = sign === undefined ? 0 : (sign === '-' ? -1 : 1) * (Number(offsetHours) * 3600 + Number(offsetMinutes) * 60 + Number(offsetSeconds)) * 1000;
  return new Date(date.getTime() - offset);
}

/**
 * The decoder Tessera's statements give `column`'s driver values: for a timestamp in date mode whose decoder is
 * Drizzle's own (a subclass may decode otherwise), the Date its text names; else null (the column's decoder).
 */
export function timestampDecoder(column: Column): ((value: unknown) => unknown) | null {
  // PgTimestamp of the Drizzle copy that made the column (drizzle-kinds.ts), so an ES module application's tables qualify.
  const own = drizzlePrototype(column, PgTimestamp[entityKind]);
  if (own === null || column.mapFromDriverValue !== own.mapFromDriverValue) return null;
  return (value) => (typeof value === 'string' && !isPlainYear(value) ? dateFromTimestampText(value) : null) ?? column.mapFromDriverValue(value as string);
}
