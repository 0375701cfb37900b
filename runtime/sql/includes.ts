// Included rows (CONTRACT §9), loaded without N+1: inside the parent's statement where the dialect can
// (nested-includes.ts), else one statement per include level (include-statements.ts), in chunks of MAX_IN_VALUES join
// values, whatever the number of parent rows. Rows are serialized by the related resource's policy and scrub, then
// attached to their parents.
import type { DbRow } from '../dialects/dialect';
import { MAX_IN_VALUES } from '../model/operators';
import type { AnyContext } from '../model/options';
import { serializeRows, type JsonRow } from '../model/row-serializer';
import { selectRelated, withJoinColumns, type IncludeNode } from './include-statements';
import { inAnswerForm } from './nested-includes';

export { withJoinColumns, type IncludeNode } from './include-statements';

/** A join value as a map key: the two sides of a join hold the same type, and Drizzle decodes both alike. */
function keyText(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  return String(value);
}

/** The distinct non-null join values of the parents, in first-seen order. */
function joinValues(rows: readonly DbRow[], key: string): unknown[] {
  const seen = new Set<string>();
  const values: unknown[] = [];
  for (const row of rows) {
    const value = row[key];
    if (value === null || value === undefined) continue;
    const text = keyText(value);
    if (seen.has(text)) continue;
    seen.add(text);
    values.push(value);
  }
  return values;
}

/**
 * Loads each include of `rows` (database rows, with their join columns) and sets it on the matching response row of
 * `json`: a to-one relation `Row | null`, a to-many one `Row[]`. Nested includes load level by level.
 */
export async function attachIncludes(includes: readonly IncludeNode[], rows: readonly DbRow[], json: readonly JsonRow[], ctx: AnyContext): Promise<void> {
  for (const node of includes) {
    const { relation } = node;
    const values = joinValues(rows, relation.sourceKey);
    const columns = withJoinColumns(node.plan, node.readFields, node.children);
    const related: DbRow[] = [];
    for (let start = 0; start < values.length; start += MAX_IN_VALUES) related.push(...(await selectRelated(node, columns, values.slice(start, start + MAX_IN_VALUES))));
    const scrubbed = node.fields.filter((field) => field.scrub !== null);
    const relatedJson = await serializeRows(related, node.fields, scrubbed, node.plan.readable, ctx);
    if (node.children.length > 0) await attachIncludes(node.children, related, relatedJson, ctx);
    const groups = new Map<string, JsonRow[]>();
    for (let index = 0; index < related.length; index++) {
      const text = keyText(related[index][relation.targetKey]);
      const group = groups.get(text);
      if (group === undefined) groups.set(text, [relatedJson[index]]);
      else group.push(relatedJson[index]);
    }
    for (let index = 0; index < rows.length; index++) {
      const value = rows[index][relation.sourceKey];
      const group = value === null || value === undefined ? undefined : groups.get(keyText(value));
      json[index][relation.name] = relation.isMany ? (group ?? []) : (group?.[0] ?? null);
    }
  }
}

/**
 * Sets each include of `rows` on its response row of `json`, where the rows came with their included rows inside them
 * (nested-includes.ts): each level's rows serialized by the related resource's policy and scrub, as attachIncludes does;
 * a level without any scrub came in its answer form already.
 */
export async function attachNested(includes: readonly IncludeNode[], rows: readonly DbRow[], json: readonly JsonRow[], ctx: AnyContext): Promise<void> {
  for (const node of includes) {
    const name = node.relation.name;
    if (inAnswerForm(node)) {
      for (let index = 0; index < rows.length; index++) json[index][name] = rows[index][name];
      continue;
    }
    const related: DbRow[] = [];
    for (const row of rows) {
      const value = row[name] as DbRow | DbRow[] | null;
      if (node.relation.isMany) related.push(...(value as DbRow[]));
      else if (value !== null) related.push(value as DbRow);
    }
    const scrubbed = node.fields.filter((field) => field.scrub !== null);
    const relatedJson = await serializeRows(related, node.fields, scrubbed, node.plan.readable, ctx);
    if (node.children.length > 0) await attachNested(node.children, related, relatedJson, ctx);
    let next = 0;
    for (let index = 0; index < rows.length; index++) {
      const value = rows[index][name] as DbRow | DbRow[] | null;
      if (!node.relation.isMany) json[index][name] = value === null ? null : relatedJson[next++];
      else {
        json[index][name] = relatedJson.slice(next, next + (value as DbRow[]).length);
        next += (value as DbRow[]).length;
      }
    }
  }
}
