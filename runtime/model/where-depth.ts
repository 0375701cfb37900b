// CONTRACT §2: AND / OR / NOT nest at most MAX_WHERE_DEPTH levels deep. The where grammar is recursive (one
// schema, compiled once), so the limit is checked here, before validation: a bounded walk that also keeps a
// hostile, deeply nested body from ever reaching the validator's recursion.
import { MAX_WHERE_DEPTH } from './where-schemas';
import { RELATION_FILTERS } from './relation-options';

export const TOO_DEEP_MESSAGE = `AND / OR / NOT nest at most ${MAX_WHERE_DEPTH} levels deep`;

const NESTING_KEYS = ['AND', 'OR', 'NOT'] as const;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The JSON Pointer of the first AND / OR / NOT that nests too deep (`/where/AND/0/…/NOT`), or null. */
export function tooDeepWherePath(where: unknown, path = '/where', depth = 0): string | null {
  if (!isPlainObject(where)) return null; // not a where object: the validator says what is wrong
  // CONTRACT §9: a relation filter (`author: { is: … }`) nests one level, as NOT does.
  for (const key in where) {
    if (!Object.hasOwn(where, key) || (NESTING_KEYS as readonly string[]).includes(key)) continue;
    const condition = where[key];
    if (!isPlainObject(condition)) continue;
    for (const name of RELATION_FILTERS) {
      if (!Object.hasOwn(condition, name)) continue;
      const at = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}/${name}`;
      if (depth === MAX_WHERE_DEPTH) return at;
      const found = tooDeepWherePath(condition[name], at, depth + 1);
      if (found !== null) return found;
    }
  }
  for (const key of NESTING_KEYS) {
    if (!Object.hasOwn(where, key)) continue;
    if (depth === MAX_WHERE_DEPTH) return `${path}/${key}`;
    const value = where[key];
    if (key === 'NOT') {
      const found = tooDeepWherePath(value, `${path}/NOT`, depth + 1);
      if (found !== null) return found;
    } else if (Array.isArray(value)) {
      for (let index = 0; index < value.length; index++) {
        const found = tooDeepWherePath(value[index], `${path}/${key}/${index}`, depth + 1);
        if (found !== null) return found;
      }
    }
  }
  return null;
}
