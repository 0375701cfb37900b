// The statement of one include level (CONTRACT §9): the related rows of a chunk of join values, `… WHERE join IN (…)`;
// a to-many level takes each parent's first `limit` rows, by ROW_NUMBER() OVER (PARTITION BY the join column) on
// MariaDB and PostgreSQL, by a LIMIT subquery per key on SQLite (Dialect.limitsPerKey). Where spec §8 allows (no
// related scope, no relation filter inside, no application defaults) the statement is the shape's prepared one from
// the related database's statement cache: join values, where values and the limit bind as placeholders, and the IN
// list is padded with nulls (which equal no join value) to a power of two, so a shape has at most 11 statements
// whatever the number of parents.
import { and, asc, lte, sql, type Column, type SQL } from 'drizzle-orm';
import { columnPlaceholder } from '../dialects/column-placeholder';
import type { DbRow, PreparableQuery } from '../dialects/dialect';
import type { FieldModel } from '../model/field-policy';
import { MAX_IN_VALUES } from '../model/operators';
import type { Where } from '../model/options';
import type { ResolvedRelation } from '../model/relations';
import { compileOrderBy, type OrderByEntry } from './order-by';
import { cacheFor, type ResourcePlan } from './resource-plan';
import { inlineLimit, preparedRead, type SelectedColumn } from './select-shapes';
import { orderKey, selectKey, wherePlaceholderName, wherePlaceholders, whereShape } from './statement-key';
import { compileWhere } from './where';

/** One include, ready to run: access resolved, its where and the related scope apart (only the where can bind). */
export interface IncludeNode {
  readonly relation: ResolvedRelation;
  readonly plan: ResourcePlan;
  /** The related resource's selected readable fields. */
  readonly fields: readonly FieldModel[];
  /** The fields its statement reads: every readable one where a selected field has a scrub (fieldsToRead). */
  readonly readFields: readonly FieldModel[];
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
const KEYS = 'tessera_keys';

/** The related rows' columns: the selected fields, the join columns of nested includes, and the join column itself. */
function selection(columns: readonly SelectedColumn[], relation: ResolvedRelation): Record<string, Column> {
  const selected: Record<string, Column> = {};
  for (const field of columns) selected[field.key] = field.column;
  selected[relation.targetKey] = relation.targetColumn;
  return selected;
}

/** The to-many rows of each key: the first `limit` per key in the related list order, by ROW_NUMBER(). */
function rankedRows(node: IncludeNode, columns: readonly SelectedColumn[], keys: SQL[], condition: SQL | undefined, order: SQL[], limit: SQL) {
  const { plan, relation } = node;
  const rowNumber = sql<number>`row_number() over (partition by ${relation.targetColumn} order by ${sql.join(order, sql`, `)})`.as(ROW_NUMBER);
  const ranked = plan.db
    .select({ ...selection(columns, relation), [ROW_NUMBER]: rowNumber })
    .from(plan.table)
    .where(and(sql`${relation.targetColumn} in (${sql.join(keys, sql`, `)})`, condition))
    .as('tessera_included');
  return plan.db
    .select()
    .from(ranked)
    .where(lte(ranked[ROW_NUMBER], limit))
    .orderBy(asc(ranked[relation.targetKey]), asc(ranked[ROW_NUMBER]));
}

/**
 * The same, walking each key's rows with `LIMIT` in a subquery: the keys as a VALUES list (a padding null joins no
 * row), each key's first `limit` rows through the join column's index. The subquery names the table as the outer
 * query does, so the where, scope and order inside it read the subquery's rows.
 */
function rowsPerKey(node: IncludeNode, columns: readonly SelectedColumn[], keys: SQL[], condition: SQL | undefined, order: SQL[], limit: SQL) {
  const { plan, relation } = node;
  const keyTable = sql`(values ${sql.join(keys.map((key) => sql`(${key})`), sql`, `)}) as ${sql.identifier(KEYS)}`;
  const keyColumn = sql`${sql.identifier(KEYS)}.${sql.identifier('column1')}`;
  const matching = condition === undefined ? sql`` : sql` and ${condition}`;
  const first = sql`select ${plan.pkColumn} from ${plan.table} where ${relation.targetColumn} = ${keyColumn}${matching} order by ${sql.join(order, sql`, `)} limit ${limit}`;
  return plan.db
    .select(selection(columns, relation))
    .from(keyTable)
    .innerJoin(plan.table, sql`${plan.pkColumn} in (${first})`)
    .orderBy(asc(relation.targetColumn), ...order);
}

/** The select of one level: rows whose join column is one of `keys`, matching `condition`, in the related list order. */
function relatedQuery(node: IncludeNode, columns: readonly SelectedColumn[], keys: SQL[], condition: SQL | undefined, limit: SQL): PreparableQuery {
  const { plan, relation } = node;
  const order = compileOrderBy(node.orderBy, plan.columns, plan.pkKey);
  if (relation.isMany) return plan.dialect.limitsPerKey === 'window' ? rankedRows(node, columns, keys, condition, order, limit) : rowsPerKey(node, columns, keys, condition, order, limit);
  const where = and(sql`${relation.targetColumn} in (${sql.join(keys, sql`, `)})`, condition);
  return plan.db.select(selection(columns, relation)).from(plan.table).where(where).orderBy(...order);
}

/** The number of join values a cached statement takes for `count` values: the next power of two, at most MAX_IN_VALUES. */
export function boundKeyCount(count: number): number {
  let bound = 1;
  while (bound < count) bound *= 2;
  return Math.min(bound, MAX_IN_VALUES);
}

function keyPlaceholders(column: Column, count: number): SQL[] {
  const placeholders: SQL[] = [];
  for (let index = 0; index < count; index++) placeholders.push(columnPlaceholder(`k${index}`, column));
  return placeholders;
}

/** The limit of a to-many level: written into the SQL where the dialect inlines limits (then part of the key), else bound. */
function limitOf(node: IncludeNode): SQL {
  return node.plan.dialect.inlinesLimit ? (inlineLimit(node.limit) as unknown as SQL) : sql`${sql.placeholder('limit')}`;
}

/** The related rows of one chunk of join values (at most MAX_IN_VALUES), grouped in order by join value. */
export function selectRelated(node: IncludeNode, columns: readonly SelectedColumn[], keys: readonly unknown[]): Promise<DbRow[]> | DbRow[] {
  const { plan, relation } = node;
  const cache = cacheFor(plan, node.condition);
  if (cache === null) {
    const values = keys.map((key) => sql`${sql.param(key, relation.targetColumn)}`);
    const condition = and(compileWhere(node.where, plan.filterColumns, plan.dialect), node.condition);
    return relatedQuery(node, columns, values, condition, sql`${node.limit}`) as unknown as Promise<DbRow[]>;
  }
  const shape = whereShape(node.where, plan.filterColumns, plan.dialect);
  const bound = boundKeyCount(keys.length);
  const limitKey = relation.isMany && plan.dialect.inlinesLimit ? `|${node.limit}` : '';
  const cacheKey = `${plan.statementPrefix}include|${relation.isMany ? 'many' : 'one'}|${relation.targetKey.length}:${relation.targetKey}|${selectKey(columns, plan.readable)}|${shape.key}|${orderKey(node.orderBy)}|${bound}${limitKey}`;
  const build = () => relatedQuery(node, columns, keyPlaceholders(relation.targetColumn, bound), wherePlaceholders(node.where, plan.filterColumns, plan.dialect), limitOf(node));
  const values: Record<string, unknown> = { limit: node.limit };
  for (let index = 0; index < shape.values.length; index++) values[wherePlaceholderName(index)] = shape.values[index];
  // Padding: null, which no join value equals.
  for (let index = 0; index < bound; index++) values[`k${index}`] = index < keys.length ? keys[index] : null;
  return preparedRead(plan, cache, cacheKey, build).execute(values);
}
