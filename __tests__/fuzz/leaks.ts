// What no answer may contain unless the request itself carried it (an error may quote the input): SQL text, the
// database's table and column names, driver error codes, stack frames and source paths, the hidden field's name.
// The sentinel values (fuzz-target.ts) are checked apart: those may never appear, whatever the request.

const LEAKS: readonly { what: string; pattern: RegExp }[] = [
  { what: 'SQL text', pattern: /\bselect\s+(\*|["`]?\w+["`]?\s*(,|\bfrom\b))|\binsert\s+into\s|\bupdate\s+["`]?\w+["`]?\s+set\s|\bdelete\s+from\s|\breturning\s+["`*]|\bon\s+conflict\s*\(|\bon\s+duplicate\s+key\b/i },
  { what: 'a table name', pattern: /\bt_(notes|items|categories|readings|counters|kinds)\b/ },
  { what: 'a column name', pattern: /\b(owner_id|created_at|category_id)\b/ },
  { what: 'a driver error', pattern: /\b(ER_[A-Z_]+|SQLITE_[A-Z_]+|SQLSTATE|duplicate key value|violates [a-z ]*constraint|syntax error at|Duplicate entry)\b/ },
  { what: 'a stack frame or source path', pattern: /\n\s+at |\bat [\w.$<>]+ \([^)]*:\d+:\d+\)|node_modules|\.ts:\d+|\/work\// },
  { what: 'the hidden field name', pattern: /\binternal\b/ },
];

/** What leaked into `answer` that `request` (path, headers and body as text) did not carry, or null. */
export function leakIn(answer: string, request: string): string | null {
  for (const { what, pattern } of LEAKS) {
    const found = pattern.exec(answer);
    if (found !== null && !request.toLowerCase().includes(found[0].toLowerCase())) return `${what} leaked (${JSON.stringify(found[0])}): ${answer.slice(0, 300)}`;
  }
  return null;
}
