// Escapes user text for LIKE and GLOB patterns, so `%`, `_`, `*`, `?` and `[` match themselves.

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
export function wrapPattern(escaped: string, kind: 'contains' | 'startsWith' | 'endsWith', wildcard: string): string {
  if (kind === 'startsWith') return escaped + wildcard;
  if (kind === 'endsWith') return wildcard + escaped;
  return wildcard + escaped + wildcard;
}
