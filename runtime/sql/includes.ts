// Included rows (CONTRACT §9), loaded without N+1: one statement per include level (`… WHERE join IN (…)`, in chunks of
// MAX_IN_VALUES keys), whatever the number of parent rows. A to-many level takes its per-parent `limit` rows in the
// related resource's list order with ROW_NUMBER() OVER (PARTITION BY the join column), which SQLite, MariaDB and
// PostgreSQL all run. Rows are serialized by the related resource's policy and scrub, then attached to their parents.
import { and, asc, inArray, lte, sql, type Column, type SQL } from 'drizzle-orm';
import type { DbRow } from '../dialects/dialect';
import type { FieldModel } from '../model/field-policy';
import { MAX_IN_VALUES } from '../model/operators';
import type { AnyContext } from '../model/options';
import type { ResolvedRelation } from '../model/relations';
import { serializeRows, type JsonRow } from '../model/row-serializer';
import { compileOrderBy, type OrderByEntry } from './order-by';
import type { ResourcePlan } from './resource-plan';
import type { SelectedColumn } from './select-shapes';

/** One include, ready to run: access resolved, its where and the related scope as one condition. */
export interface IncludeNode {
  readonly relation: ResolvedRelation;
  readonly plan: ResourcePlan;
  /** The related resource's selected readable fields. */
  readonly fields: readonly FieldModel[];
  /** The include's where ANDed with the related resource's scope. */
  readonly condition: SQL | undefined;
  readonly orderBy: readonly OrderByEntry[] | undefined;
  /** To-many: rows per parent. */
  readonly limit: number;
  readonly children: readonly IncludeNode[];
}

/** The selected fields plus the join columns the includes need, each once. */
export function withJoinColumns(plan: ResourcePlan, fields: readonly FieldModel[], includes: readonly IncludeNode[]): readonly SelectedColumn[] {
  let columns: SelectedColumn[] | null = null;
  for (const node of includes) {
    const key = node.relation.sourceKey;
    if (fields.some((field) => field.key === key) || columns?.some((column) => column.key === key)) continue;
    columns ??= [...fields];
    columns.push({ key, column: plan.columns[key] });
  }
  return columns ?? fields;
}

/** A join value as a map key: the two sides of a join hold the same type, and Drizzle decodes both alike. */
function keyText(value: unknown): string {
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Uint8Array) return Buffer.from(value).toString('hex');
  return String(value);
}

const ROW_NUMBER = 'tessera_row_number';

function selection(node: IncludeNode): Record<string, Column> {
  const columns: Record<string, Column> = {};
  for (const field of withJoinColumns(node.plan, node.fields, node.children)) columns[field.key] = field.column;
  columns[node.relation.targetKey] = node.relation.targetColumn;
  return columns;
}

/** The related rows of one chunk of join values, grouped in order by join value. */
async function selectRelated(node: IncludeNode, keys: readonly unknown[]): Promise<DbRow[]> {
  const { plan, relation } = node;
  const condition = and(inArray(relation.targetColumn, keys as unknown[]), node.condition);
  const order = compileOrderBy(node.orderBy, plan.columns, plan.pkKey);
  if (!relation.isMany) return plan.db.select(selection(node)).from(plan.table).where(condition).orderBy(...order);
  // The first `limit` rows of each parent, in the related resource's list order.
  const rowNumber = sql<number>`row_number() over (partition by ${relation.targetColumn} order by ${sql.join(order, sql`, `)})`.as(ROW_NUMBER);
  const ranked = plan.db
    .select({ ...selection(node), [ROW_NUMBER]: rowNumber })
    .from(plan.table)
    .where(condition)
    .as('tessera_included');
  return plan.db
    .select()
    .from(ranked)
    .where(lte(ranked[ROW_NUMBER], node.limit))
    .orderBy(asc(ranked[relation.targetKey]), asc(ranked[ROW_NUMBER]));
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
    const related: DbRow[] = [];
    for (let start = 0; start < values.length; start += MAX_IN_VALUES) related.push(...(await selectRelated(node, values.slice(start, start + MAX_IN_VALUES))));
    const scrubbed = node.fields.filter((field) => field.scrub !== null);
    const relatedJson = await serializeRows(related, node.fields, scrubbed, ctx);
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
