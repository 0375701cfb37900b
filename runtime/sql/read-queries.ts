// The read queries of the crud actions (get, list, findOne, count, exists). A call without a scope
// condition on a table without application defaults runs its shape's cached prepared statement (spec §8);
// any other call builds its query with the values inline, as drizzle does.
import { and, count, type SQL } from 'drizzle-orm';
import type { DbRow, StatementSource } from '../dialects/dialect';
import { rowCondition } from '../dialects/write-statements';
import type { Where } from '../model/options';
import { bindKeyset, inlineKeyset, type Keyset } from './keyset';
import { compileOrderBy, type OrderByEntry } from './order-by';
import { cacheFor, type ResourcePlan, type Scope } from './resource-plan';
import { getKey, getQuery, pageKey, pageQuery, prepared, preparedRead, selectionOf, type SelectedColumn } from './select-shapes';
import { wherePlaceholderName, wherePlaceholders, whereShape } from './statement-key';
import type { NestedSelection } from './nested-selection';
import { compileWhere } from './where';
import { uncachedPage, type PageRequest, type Rows } from './page-texts';

export type { PageRequest, Rows } from './page-texts';

const statementSources = new WeakMap<ResourcePlan, StatementSource>();

/** The writes' way into the cache (shapes under this resource's prefix), or null when spec §8 keeps the call out. */
export function statementSource(rt: ResourcePlan, scope: Scope): StatementSource | null {
  const cache = cacheFor(rt, scope);
  if (cache === null) return null;
  let source = statementSources.get(rt);
  if (source === undefined) statementSources.set(rt, (source = (shape, build) => prepared(rt, cache, rt.statementPrefix + shape, build)));
  return source;
}

function filterCondition(rt: ResourcePlan, where: Where | undefined, scope: Scope): SQL | undefined {
  const condition = compileWhere(where, rt.filterColumns, rt.dialect);
  if (scope === undefined) return condition;
  return condition === undefined ? scope : and(condition, scope);
}

/** Binds `p0, p1, …` from a where shape's values, plus the call's own named values. */
function placeholderValues(values: readonly unknown[], named: Record<string, unknown>): Record<string, unknown> {
  for (let index = 0; index < values.length; index++) named[wherePlaceholderName(index)] = values[index];
  return named;
}

/** The statement cache for a read, as cacheFor says, unless its includes keep it out (a related resource's scope). */
function readCache(rt: ResourcePlan, scope: Scope, nested: NestedSelection | null) {
  return nested === null || nested.isCached ? cacheFor(rt, scope) : null;
}

/** The row with this (decoded) id inside the scope, as a list of at most one; its includes too where `nested` says. */
export function selectById(rt: ResourcePlan, fields: readonly SelectedColumn[], id: unknown, scope: Scope, nested: NestedSelection | null = null): Rows {
  const cache = readCache(rt, scope, nested);
  if (cache !== null) {
    const statement = preparedRead(rt, cache, getKey(rt, fields, nested), () => getQuery(rt, fields, nested));
    return statement.execute(nested === null ? { id } : { ...nested.values, id });
  }
  return rt.db.select(selectionOf(rt, fields, nested)).from(rt.table).where(rowCondition({ pk: rt.pkColumn, scope }, id)).limit(1);
}

export function selectPage(rt: ResourcePlan, page: PageRequest, scope: Scope): Rows {
  const cache = readCache(rt, scope, page.nested);
  const shape = whereShape(page.where, rt.filterColumns, rt.dialect);
  if (cache !== null) {
    const key = pageKey(rt, page.fields, shape.key, page.orderBy, page.limit, page.after, page.nested, page.offset);
    const statement = preparedRead(rt, cache, key, () => pageQuery(rt, page.fields, page.where, page.orderBy, page.limit, page.after, page.nested, page.offset));
    const named = placeholderValues(shape.values, page.nested === null ? { limit: page.limit, offset: page.offset } : { ...page.nested.values, limit: page.limit, offset: page.offset });
    return statement.execute(page.after === null ? named : bindKeyset(page.after, named));
  }
  // Spec §8 keeps this call out of the cache: the shape's text, written once, prepared for the call only.
  const rows = page.nested === null ? uncachedPage(rt, page, shape, scope) : null;
  if (rows !== null) return rows;
  const filter = filterCondition(rt, page.where, scope);
  return rt.db
    .select(selectionOf(rt, page.fields, page.nested))
    .from(rt.table)
    .where(page.after === null ? filter : and(filter, inlineKeyset(page.after, rt.dialect)))
    .orderBy(...compileOrderBy(page.orderBy, rt.columns, rt.pkKey))
    .limit(page.limit)
    .offset(page.offset);
}

/** How many rows match the where inside the scope. */
export async function countRows(rt: ResourcePlan, where: Where | undefined, scope: Scope): Promise<number> {
  const cache = cacheFor(rt, scope);
  let rows: DbRow[];
  if (cache !== null) {
    const shape = whereShape(where, rt.filterColumns, rt.dialect);
    const build = () => rt.db.select({ count: count() }).from(rt.table).where(wherePlaceholders(where, rt.filterColumns, rt.dialect));
    rows = await preparedRead(rt, cache, `${rt.statementPrefix}count|${shape.key}`, build).execute(placeholderValues(shape.values, {}));
  } else {
    rows = await rt.db.select({ count: count() }).from(rt.table).where(filterCondition(rt, where, scope));
  }
  return Number(rows[0].count);
}

/** Whether any row matches the where inside the scope. */
export async function anyRow(rt: ResourcePlan, where: Where | undefined, scope: Scope): Promise<boolean> {
  const cache = cacheFor(rt, scope);
  let rows: DbRow[];
  if (cache !== null) {
    const shape = whereShape(where, rt.filterColumns, rt.dialect);
    const build = () => rt.db.select({ id: rt.pkColumn }).from(rt.table).where(wherePlaceholders(where, rt.filterColumns, rt.dialect)).limit(1);
    rows = await preparedRead(rt, cache, `${rt.statementPrefix}exists|${shape.key}`, build).execute(placeholderValues(shape.values, {}));
  } else {
    rows = await rt.db.select({ id: rt.pkColumn }).from(rt.table).where(filterCondition(rt, where, scope)).limit(1);
  }
  return rows.length > 0;
}
