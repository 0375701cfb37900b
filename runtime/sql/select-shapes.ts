// The select shapes of the read actions (spec §8 rule 1): each shape's cache key and its query with placeholders,
// for get by id and a page (the two spec §8 rule 4 prepares at start), and how a shape's statement is prepared.
import { createHash } from 'node:crypto';
import { and, eq, sql, type Column, type SQL } from 'drizzle-orm';
import { columnPlaceholder } from '../dialects/column-placeholder';
import type { PreparableQuery } from '../dialects/dialect';
import { prepareRead } from '../dialects/read-replicas';
import type { FieldModel } from '../model/field-policy';

/** What a select reads of a field: its key and column (a join column read for includes is one too, CONTRACT §9). */
export type SelectedColumn = Pick<FieldModel, 'key' | 'column'>;
import type { Where } from '../model/options';
import { keysetKey, keysetPlaceholders, type Keyset } from './keyset';
import { compileOrderBy, type OrderByEntry } from './order-by';
import type { NestedSelection } from './nested-selection';
import type { ResourcePlan } from './resource-plan';
import type { StatementCache } from './statement-cache';
import { orderKey, selectKey, wherePlaceholders } from './statement-key';

/**
 * The columns a select reads: the default selection for the readable fields, else each selected field's column; then
 * the included rows where they come inside the statement (CONTRACT §9, nested-includes.ts).
 */
export function selectionOf(rt: ResourcePlan, fields: readonly SelectedColumn[], nested: NestedSelection | null = null): Record<string, Column | SQL> {
  if (fields === rt.readable && nested === null) return rt.defaultSelection;
  const selection: Record<string, Column | SQL> = {};
  for (const field of fields) selection[field.key] = field.column;
  if (nested !== null) Object.assign(selection, nested.fields());
  return selection;
}

/**
 * Statement names matter on PostgreSQL only, where each connection keeps its named statements and refuses one
 * name for two texts: so the name is a digest of the text (63 bytes at most, PostgreSQL's identifier limit).
 */
export function statementName(text: string): string {
  return `tessera_${createHash('sha256').update(text).digest('hex').slice(0, 40)}`;
}

/** The cached statement of a shape, prepared on a miss (named by its text where the database names statements). */
export function prepared(rt: ResourcePlan, cache: StatementCache, key: string, build: () => PreparableQuery) {
  return cache.statement(key, () => {
    const query = build();
    return rt.dialect.prepare(query, statementName(query.toSQL().sql));
  });
}

/** The cached statement of a read shape: on a withReplicas database, run on the replica picked per call (read-replicas.ts). */
export function preparedRead(rt: ResourcePlan, cache: StatementCache, key: string, build: () => PreparableQuery) {
  return cache.statement(key, () => {
    const query = build();
    const name = statementName(query.toSQL().sql);
    return prepareRead(rt.db, query, (on) => rt.dialect.prepare(on, name));
  });
}

/** A LIMIT written into the SQL: drizzle would bind even a literal number. `limit` is a validated integer. */
export function inlineLimit(limit: number): number {
  return sql.raw(String(limit)) as unknown as number;
}

/** `pk = :id LIMIT 1` over the fields: the get statement (the one spec §8 rule 4 prepares for the readable fields). */
export function getQuery(rt: ResourcePlan, fields: readonly SelectedColumn[], nested: NestedSelection | null = null): PreparableQuery {
  // The key column's encoder maps the id as it would inline (a bigint key stored as a blob, say).
  return rt.db.select(selectionOf(rt, fields, nested)).from(rt.table).where(eq(rt.pkColumn, columnPlaceholder('id', rt.pkColumn))).limit(inlineLimit(1));
}

/**
 * Whether a page's statement leaves its OFFSET out: a page from the first row, where the dialect writes the LIMIT in
 * (a bound OFFSET, like a bound LIMIT, keeps PostgreSQL planning the statement at every execution). Part of the key.
 */
export function leavesOffsetOut(rt: ResourcePlan, offset: number): boolean {
  return rt.dialect.inlinesLimit && offset === 0;
}

/**
 * A page with the where shape's placeholders, `LIMIT` and `OFFSET :offset` (rule 4 prepares the default one).
 * The limit is `:limit`, or written in where the dialect inlines it (then it is part of the key), and then a page
 * from `offset` 0 has no OFFSET (leavesOffsetOut).
 */
export function pageQuery(
  rt: ResourcePlan,
  fields: readonly SelectedColumn[],
  where: Where | undefined,
  orderBy: readonly OrderByEntry[] | undefined,
  limit: number,
  after: Keyset | null = null,
  nested: NestedSelection | null = null,
  offset = 0,
): PreparableQuery {
  const filter = wherePlaceholders(where, rt.filterColumns, rt.dialect);
  const query = rt.db
    .select(selectionOf(rt, fields, nested))
    .from(rt.table)
    .where(after === null ? filter : and(filter, keysetPlaceholders(after, rt.dialect)))
    .orderBy(...compileOrderBy(orderBy, rt.columns, rt.pkKey))
    .limit(rt.dialect.inlinesLimit ? inlineLimit(limit) : sql.placeholder('limit'));
  return leavesOffsetOut(rt, offset) ? query : query.offset(sql.placeholder('offset'));
}

/** The includes' shape, where they come inside the statement. */
function nestedKey(nested: NestedSelection | null): string {
  return nested === null ? '' : `|include${nested.key}`;
}

export function getKey(rt: ResourcePlan, fields: readonly SelectedColumn[], nested: NestedSelection | null = null): string {
  return `${rt.statementPrefix}get|${selectKey(fields, rt.readable)}${nestedKey(nested)}`;
}

export function pageKey(
  rt: ResourcePlan,
  fields: readonly SelectedColumn[],
  whereKey: string,
  orderBy: readonly OrderByEntry[] | undefined,
  limit: number,
  after: Keyset | null = null,
  nested: NestedSelection | null = null,
  offset = 0,
): string {
  const page = `${rt.statementPrefix}page|${selectKey(fields, rt.readable)}|${whereKey}|${orderKey(orderBy)}${nestedKey(nested)}`;
  const key = after === null ? page : `${page}|${keysetKey(after)}`;
  if (!rt.dialect.inlinesLimit) return key;
  return leavesOffsetOut(rt, offset) ? `${key}|${limit}` : `${key}|${limit}|offset`;
}
