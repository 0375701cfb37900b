// Exact text (issue 32): a JSON body's strings must be well-formed Unicode. JSON.parse accepts a lone surrogate
// escape (`"\ud800"`), which would be stored in place of text the client never had (json-body.ts checks the bytes).

/** A surrogate left alone: in a `u` expression a pair matches as one code point, so only a lone half matches. */
const LONE_SURROGATE = /\p{Surrogate}/u;
/** A `\u` escape of a surrogate (U+D800..U+DFFF); its absence, the common case, spares the walk below. */
const SURROGATE_ESCAPE = /\\u[dD][89abcdefABCDEF]/;

/** Whether JSON text may hold a surrogate escape: when it does, its parsed value must be checked (isWellFormedValue). */
export function mayHoldSurrogateEscape(text: string): boolean {
  return SURROGATE_ESCAPE.test(text);
}

/** Whether every string of a parsed JSON value, keys included, is well-formed (a pair `\ud83d\ude00` is; `\ud800` alone is not). */
export function isWellFormedValue(value: unknown): boolean {
  if (typeof value === 'string') return !LONE_SURROGATE.test(value);
  if (typeof value !== 'object' || value === null) return true;
  if (Array.isArray(value)) return value.every(isWellFormedValue);
  for (const key in value) if (LONE_SURROGATE.test(key) || !isWellFormedValue((value as Record<string, unknown>)[key])) return false;
  return true;
}
