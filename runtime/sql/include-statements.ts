// The statement of one include level (CONTRACT §9): the related rows of a chunk of join values, `… WHERE join IN (…)`,
// a to-many level's first `limit` rows per parent by ROW_NUMBER() OVER (PARTITION BY the join column), which SQLite,
// MariaDB and PostgreSQL all run. Where spec §8 allows (no related scope, no relation filter inside, no application
// defaults) the statement is the shape's prepared one from the related database's statement cache: join values,
// where values and the limit bind as placeholders, and the IN list is padded to a power of two (repeating its last
// value, which matches nothing more), so a shape has at most 11 statements whatever the number of parents.
import { and, asc, lte, sql, type Column, type SQL } from 'drizzle-orm';
import { columnPlaceholder } from '../dialects/column-placeholder';
import type { DbRow, PreparableQuery } from '../dialects/dialect';
import type { FieldModel } from '../model/field-policy';
import { MAX_IN_VALUES } from '../model/operators';
import type { Where } from '../model/options';
import type { ResolvedRelation } from '../model/relations';
import { compileOrderBy, type OrderByEntry } from './order-by';
import { cacheFor, type ResourcePlan } from './resource-plan';
import { preparedRead, type SelectedColumn } from './select-shapes';
import { orderKey, selectKey, wherePlaceholderName, wherePlaceholders, whereShape } from './statement-key';
import { compileWhere } from './where';

/** One include, ready to run: access resolved, its where and the related scope apart (only the where can bind). */
export interface IncludeNode {
  readonly relation: ResolvedRelation;
  readonly plan: ResourcePlan;
  /** The related resource's selected readable fields. */
  readonly fields: readonly FieldModel[];
  /** The include's where when it filters on fields only (a where through relations is in `condition`). */
  readonly where: Where | undefined;
  /** The related resource's scope, ANDed with a where that filters through relations: rendered per call (spec §8 rule 2). */
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

const ROW_NUMBER = 'tessera_row_number';

/** The related rows' columns: the selected fields, the join columns of nested includes, and the join column itself. */
function selection(columns: readonly SelectedColumn[], relation: ResolvedRelation): Record<string, Column> {
  const selected: Record<string, Column> = {};
  for (const field of columns) selected[field.key] = field.column;
  selected[relation.targetKey] = relation.targetColumn;
  return selected;
}

/** The select of one level: rows whose join column is in `keys`, matching `condition`, in the related list order. */
function relatedQuery(node: IncludeNode, columns: readonly SelectedColumn[], keys: SQL, condition: SQL | undefined, limit: unknown): PreparableQuery {
  const { plan, relation } = node;
  const where = and(sql`${relation.targetColumn} in (${keys})`, condition);
  const order = compileOrderBy(node.orderBy, plan.columns, plan.pkKey);
  if (!relation.isMany) return plan.db.select(selection(columns, relation)).from(plan.table).where(where).orderBy(...order);
  // The first `limit` rows of each parent, in the related resource's list order.
  const rowNumber = sql<number>`row_number() over (partition by ${relation.targetColumn} order by ${sql.join(order, sql`, `)})`.as(ROW_NUMBER);
  const ranked = plan.db
    .select({ ...selection(columns, relation), [ROW_NUMBER]: rowNumber })
    .from(plan.table)
    .where(where)
    .as('tessera_included');
  return plan.db
    .select()
    .from(ranked)
    .where(lte(ranked[ROW_NUMBER], limit))
    .orderBy(asc(ranked[relation.targetKey]), asc(ranked[ROW_NUMBER]));
}

/** The number of join values a cached statement takes for `count` values: the next power of two, at most MAX_IN_VALUES. */
export function boundKeyCount(count: number): number {
  let bound = 1;
  while (bound < count) bound *= 2;
  return Math.min(bound, MAX_IN_VALUES);
}

function keyPlaceholders(column: Column, count: number): SQL {
  const placeholders: SQL[] = [];
  for (let index = 0; index < count; index++) placeholders.push(columnPlaceholder(`k${index}`, column));
  return sql.join(placeholders, sql`, `);
}

/** The related rows of one chunk of join values (at most MAX_IN_VALUES), grouped in order by join value. */
export function selectRelated(node: IncludeNode, columns: readonly SelectedColumn[], keys: readonly unknown[]): Promise<DbRow[]> | DbRow[] {
  const { plan, relation } = node;
  const cache = cacheFor(plan, node.condition);
  if (cache === null) {
    const values = sql.join(keys.map((key) => sql`${sql.param(key, relation.targetColumn)}`), sql`, `);
    return relatedQuery(node, columns, values, and(compileWhere(node.where, plan.filterColumns, plan.dialect), node.condition), node.limit) as unknown as Promise<DbRow[]>;
  }
  const shape = whereShape(node.where, plan.filterColumns, plan.dialect);
  const bound = boundKeyCount(keys.length);
  const cacheKey = `${plan.statementPrefix}include|${relation.isMany ? 'many' : 'one'}|${relation.targetKey.length}:${relation.targetKey}|${selectKey(columns, plan.readable)}|${shape.key}|${orderKey(node.orderBy)}|${bound}`;
  const build = () => relatedQuery(node, columns, keyPlaceholders(relation.targetColumn, bound), wherePlaceholders(node.where, plan.filterColumns, plan.dialect), sql.placeholder('limit'));
  const values: Record<string, unknown> = { limit: node.limit };
  for (let index = 0; index < shape.values.length; index++) values[wherePlaceholderName(index)] = shape.values[index];
  for (let index = 0; index < bound; index++) values[`k${index}`] = keys[Math.min(index, keys.length - 1)];
  return preparedRead(plan, cache, cacheKey, build).execute(values);
}
