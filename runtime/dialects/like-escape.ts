// Escapes user text for LIKE and GLOB patterns, so `%`, `_`, `*`, `?` and `[` match themselves; and the LIKE
// match MySQL and PostgreSQL share (SQLite matches with GLOB, sqlite.ts).
import { sql, type Column, type SQL } from 'drizzle-orm';
import type { PatternKind } from './dialect';

/** The LIKE escape character used on every dialect that uses LIKE (written as `ESCAPE '!'`). */
export const LIKE_ESCAPE = '!';

/** Escapes `%`, `_` and the escape character itself for `LIKE ... ESCAPE '!'`. */
export function escapeLike(text: string): string {
  return text.replace(/[!%_]/g, (char) => LIKE_ESCAPE + char);
}

/** Escapes `*`, `?` and `[` for SQLite GLOB by wrapping each in a one-character class. */
export function escapeGlob(text: string): string {
  return text.replace(/[*?[]/g, (char) => `[${char}]`);
}

/** Wraps escaped text with the wildcard for the pattern kind. */
export function wrapPattern(escaped: string, kind: PatternKind, wildcard: string): string {
  if (kind === 'startsWith') return escaped + wildcard;
  if (kind === 'endsWith') return wildcard + escaped;
  return wildcard + escaped + wildcard;
}

/** Dialect.patternValue on the LIKE databases: the text escaped for `ESCAPE '!'`, wrapped in `%`. */
export function likePatternValue(kind: PatternKind, text: string): string {
  return wrapPattern(escapeLike(text), kind, '%');
}

/** Dialect.matchPattern on the LIKE databases: `column LIKE pattern ESCAPE '!'`. */
export function matchLike(column: Column, pattern: unknown): SQL {
  return sql`${column} LIKE ${pattern} ESCAPE ${sql.raw(`'${LIKE_ESCAPE}'`)}`;
}
