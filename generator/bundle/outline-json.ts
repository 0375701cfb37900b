// The JSON of a bundle's documents (openapi.json, contract.json): the outline indented, every value below it on one
// line. At 50 resources, indenting whole schemas made half of these files' bytes (issue 16); one line per operation
// and component schema, or per contract action and shared definition, keeps a diff to the entries that changed.

function outline(json: unknown, depth: number, indent: string): string {
  // As JSON.stringify: an object's toJSON() stands for it.
  const value = typeof (json as { toJSON?: unknown } | null)?.toJSON === 'function' ? (json as { toJSON(): unknown }).toJSON() : json;
  if (depth === 0 || value === null || typeof value !== 'object') return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    return `[\n${value.map((item) => inner + outline(item ?? null, depth - 1, inner)).join(',\n')}\n${indent}]`;
  }
  // As JSON.stringify: members without a JSON value are left out (in an array they are null).
  const entries = Object.entries(value).filter(([, item]) => item !== undefined && typeof item !== 'function');
  if (entries.length === 0) return '{}';
  return `{\n${entries.map(([key, item]) => `${inner}${JSON.stringify(key)}: ${outline(item, depth - 1, inner)}`).join(',\n')}\n${indent}}`;
}

/**
 * `value` as JSON with its first `depth` levels indented by two spaces, and a final newline: 3 for openapi.json
 * (`paths` → path → method, `components` → `schemas` → name), 2 for contract.json (`actions` → action).
 */
export function outlineJson(value: unknown, depth: number): string {
  return outline(value, depth, '') + '\n';
}
