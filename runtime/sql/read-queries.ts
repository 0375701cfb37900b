// The read queries of the crud actions (get, list, findOne, count, exists). A call without a scope
// condition on a table without application defaults runs its shape's cached prepared statement (spec §8);
// any other call builds its query with the values inline, as drizzle does.
import { and, count, eq, sql, type Column, type SQL } from 'drizzle-orm';
import { columnPlaceholder } from '../dialects/column-placeholder';
import { createHash } from 'node:crypto';
import type { DbRow, PreparableQuery, StatementSource } from '../dialects/dialect';
import { rowCondition } from '../dialects/write-statements';
import { compileOrderBy, type OrderByEntry } from './order-by';
import { compileWhere } from './where';
import type { StatementCache } from './statement-cache';
import { orderKey, selectKey, wherePlaceholderName, wherePlaceholders, whereShape } from './statement-key';
import type { CrudRuntime } from '../model/crud-runtime';
import type { FieldModel } from '../model/field-policy';
import type { Where } from '../model/options';

/** The condition every query of a call is ANDed with (CONTRACT §3), or undefined. */
export type Scope = SQL | undefined;

/** A page of rows: what list and findOne ask for. */
export interface PageRequest {
  readonly fields: readonly FieldModel[];
  readonly where: Where | undefined;
  readonly orderBy: readonly OrderByEntry[] | undefined;
  readonly limit: number;
  readonly offset: number;
}

export type Rows = DbRow[] | Promise<DbRow[]>;

/** spec §8 rules 2 and 3: the cache serves calls without a scope condition on tables without application defaults. */
function cacheFor(rt: CrudRuntime, scope: Scope): StatementCache | null {
  const cache = rt.statementCache;
  return scope === undefined && cache !== null && cache.isEnabled ? cache : null;
}

const statementSources = new WeakMap<CrudRuntime, StatementSource>();

/** The writes' way into the cache (shapes under this resource's prefix), or null when spec §8 keeps the call out. */
export function statementSource(rt: CrudRuntime, scope: Scope): StatementSource | null {
  const cache = cacheFor(rt, scope);
  if (cache === null) return null;
  let source = statementSources.get(rt);
  if (source === undefined) statementSources.set(rt, (source = (shape, build) => prepared(rt, cache, rt.statementPrefix + shape, build)));
  return source;
}

export function selectionOf(rt: CrudRuntime, fields: readonly FieldModel[]): Record<string, Column> {
  if (fields === rt.readable) return rt.defaultSelection;
  const selection: Record<string, Column> = {};
  for (const field of fields) selection[field.key] = field.column;
  return selection;
}

/**
 * Statement names matter on PostgreSQL only, where each connection keeps its named statements and refuses one
 * name for two texts: so the name is a digest of the text (63 bytes at most, PostgreSQL's identifier limit).
 */
export function statementName(text: string): string {
  return `tessera_${createHash('sha256').update(text).digest('hex').slice(0, 40)}`;
}

function prepared(rt: CrudRuntime, cache: StatementCache, key: string, build: () => PreparableQuery) {
  return cache.statement(key, () => {
    const query = build();
    return rt.dialect.prepare(query, statementName(query.toSQL().sql));
  });
}

function filterCondition(rt: CrudRuntime, where: Where | undefined, scope: Scope): SQL | undefined {
  const condition = compileWhere(where, rt.filterColumns, rt.dialect);
  if (scope === undefined) return condition;
  return condition === undefined ? scope : and(condition, scope);
}

/** Binds `p0, p1, …` from a where shape's values, plus the call's own named values. */
function placeholderValues(values: readonly unknown[], named: Record<string, unknown>): Record<string, unknown> {
  for (let index = 0; index < values.length; index++) named[wherePlaceholderName(index)] = values[index];
  return named;
}

/** A LIMIT written into the SQL: drizzle would bind even a literal number. `limit` is a validated integer. */
export function inlineLimit(limit: number): number {
  return sql.raw(String(limit)) as unknown as number;
}

/** `pk = :id LIMIT 1` over the fields: the get statement (the one spec §8 rule 4 prepares for the readable fields). */
export function getQuery(rt: CrudRuntime, fields: readonly FieldModel[]): PreparableQuery {
  // The key column's encoder maps the id as it would inline (a bigint key stored as a blob, say).
  return rt.db.select(selectionOf(rt, fields)).from(rt.table).where(eq(rt.pkColumn, columnPlaceholder('id', rt.pkColumn))).limit(inlineLimit(1));
}

/**
 * A page with the where shape's placeholders, `LIMIT` and `OFFSET :offset` (rule 4 prepares the default one).
 * The limit is `:limit`, or written in where the dialect inlines it (then it is part of the key).
 */
export function pageQuery(rt: CrudRuntime, fields: readonly FieldModel[], where: Where | undefined, orderBy: readonly OrderByEntry[] | undefined, limit: number): PreparableQuery {
  return rt.db
    .select(selectionOf(rt, fields))
    .from(rt.table)
    .where(wherePlaceholders(where, rt.filterColumns, rt.dialect))
    .orderBy(...compileOrderBy(orderBy, rt.columns, rt.pkKey))
    .limit(rt.dialect.inlinesLimit ? inlineLimit(limit) : sql.placeholder('limit'))
    .offset(sql.placeholder('offset'));
}

export function getKey(rt: CrudRuntime, fields: readonly FieldModel[]): string {
  return `${rt.statementPrefix}get|${selectKey(fields, rt.readable)}`;
}

export function pageKey(rt: CrudRuntime, fields: readonly FieldModel[], whereKey: string, orderBy: readonly OrderByEntry[] | undefined, limit: number): string {
  const key = `${rt.statementPrefix}page|${selectKey(fields, rt.readable)}|${whereKey}|${orderKey(orderBy)}`;
  return rt.dialect.inlinesLimit ? `${key}|${limit}` : key;
}

/** The row with this (decoded) id inside the scope, as a list of at most one. */
export function selectById(rt: CrudRuntime, fields: readonly FieldModel[], id: unknown, scope: Scope): Rows {
  const cache = cacheFor(rt, scope);
  if (cache !== null) return prepared(rt, cache, getKey(rt, fields), () => getQuery(rt, fields)).execute({ id });
  return rt.db.select(selectionOf(rt, fields)).from(rt.table).where(rowCondition({ pk: rt.pkColumn, scope }, id)).limit(1);
}

export function selectPage(rt: CrudRuntime, page: PageRequest, scope: Scope): Rows {
  const cache = cacheFor(rt, scope);
  if (cache !== null) {
    const shape = whereShape(page.where, rt.filterColumns, rt.dialect);
    const key = pageKey(rt, page.fields, shape.key, page.orderBy, page.limit);
    const statement = prepared(rt, cache, key, () => pageQuery(rt, page.fields, page.where, page.orderBy, page.limit));
    return statement.execute(placeholderValues(shape.values, { limit: page.limit, offset: page.offset }));
  }
  return rt.db
    .select(selectionOf(rt, page.fields))
    .from(rt.table)
    .where(filterCondition(rt, page.where, scope))
    .orderBy(...compileOrderBy(page.orderBy, rt.columns, rt.pkKey))
    .limit(page.limit)
    .offset(page.offset);
}

/** How many rows match the where inside the scope. */
export async function countRows(rt: CrudRuntime, where: Where | undefined, scope: Scope): Promise<number> {
  const cache = cacheFor(rt, scope);
  let rows: DbRow[];
  if (cache !== null) {
    const shape = whereShape(where, rt.filterColumns, rt.dialect);
    const build = () => rt.db.select({ count: count() }).from(rt.table).where(wherePlaceholders(where, rt.filterColumns, rt.dialect));
    rows = await prepared(rt, cache, `${rt.statementPrefix}count|${shape.key}`, build).execute(placeholderValues(shape.values, {}));
  } else {
    rows = await rt.db.select({ count: count() }).from(rt.table).where(filterCondition(rt, where, scope));
  }
  return Number(rows[0].count);
}

/** Whether any row matches the where inside the scope. */
export async function anyRow(rt: CrudRuntime, where: Where | undefined, scope: Scope): Promise<boolean> {
  const cache = cacheFor(rt, scope);
  let rows: DbRow[];
  if (cache !== null) {
    const shape = whereShape(where, rt.filterColumns, rt.dialect);
    const build = () => rt.db.select({ id: rt.pkColumn }).from(rt.table).where(wherePlaceholders(where, rt.filterColumns, rt.dialect)).limit(1);
    rows = await prepared(rt, cache, `${rt.statementPrefix}exists|${shape.key}`, build).execute(placeholderValues(shape.values, {}));
  } else {
    rows = await rt.db.select({ id: rt.pkColumn }).from(rt.table).where(filterCondition(rt, where, scope)).limit(1);
  }
  return rows.length > 0;
}
