// The fixed query shapes of a resource (spec §8 rule 4): get by id and the default list page, both over
// the readable fields. The server constructor prepares them into the cache; the bundle records their SQL.
import { count, eq } from 'drizzle-orm';
import { columnPlaceholder } from '../dialects/column-placeholder';
import { holdsFixedDefault } from './fixed-execution';
import { parameterSlot } from '../dialects/prepared-select';
import type { CrudRuntime } from '../model/crud-runtime';
import { getKey, getQuery, inlineLimit, pageKey, pageQuery, statementName } from './read-queries';
import type { PreparableQuery, PreparedQuery } from '../dialects/dialect';

/** spec §8 rule 4: resources without a scope function and without application defaults (rule 3). */
export function canPrepareFixedStatements(rt: CrudRuntime): boolean {
  return rt.access.scope === null && rt.statementCache !== null;
}

/** `WHERE pk = :id LIMIT 1`, and primary-key order with `LIMIT :limit OFFSET :offset`: keys and queries. */
function fixedShapes(rt: CrudRuntime): { name: 'getById' | 'listPage'; action: 'get' | 'list'; key: string; query: () => PreparableQuery }[] {
  return [
    { name: 'getById', action: 'get', key: getKey(rt, rt.readable), query: () => getQuery(rt, rt.readable) },
    { name: 'listPage', action: 'list', key: pageKey(rt, rt.readable, '', undefined, rt.defaultLimit), query: () => pageQuery(rt, rt.readable, undefined, undefined, rt.defaultLimit) },
  ];
}

/**
 * Prepared now when the table is there; otherwise on first execution, since an application may create its
 * tables after the server is built (migrations at start, tests) and better-sqlite3 prepares against the live schema.
 */
function prepareNowOrOnFirstUse(rt: CrudRuntime, query: PreparableQuery, name: string): PreparedQuery {
  try {
    return rt.dialect.prepare(query, name);
  } catch {
    let prepared: PreparedQuery | null = null;
    return {
      execute(values) {
        prepared ??= rt.dialect.prepare(query, name);
        return prepared.execute(values);
      },
    };
  }
}

/** spec §8 rule 4: puts the default statement of a resource's get or list action in the cache while the server is built. */
export function prepareFixedStatement(rt: CrudRuntime, action: 'get' | 'list'): void {
  const cache = rt.statementCache;
  if (!canPrepareFixedStatements(rt) || cache === null || !cache.isEnabled) return;
  // A compiled handler prepared it already, as the fixed shape it runs without Drizzle.
  if (holdsFixedDefault(rt, action)) return;
  for (const shape of fixedShapes(rt)) {
    if (shape.action !== action) continue;
    cache.preload(shape.key, () => {
      const query = shape.query();
      return prepareNowOrOnFirstUse(rt, query, statementName(query.toSQL().sql));
    });
  }
}

/** The shapes the compiler writes as SQL (issue 11): every query of these actions whose text is known at build time. */
export type FixedShapeName = 'getById' | 'listPage' | 'countAll' | 'anyRow' | 'deleteById';

/** One fixed shape as the bundle records it, and its generated handlers run it. */
export interface FixedStatementShape {
  readonly name: FixedShapeName;
  /** SQL with the database's own placeholders (`?`, `$1`); a page's LIMIT is the resource's defaultLimit where the dialect writes it in. */
  readonly sql: string;
  /** What binds to each placeholder, in order: `:name` for a value given per call, else the fixed value. */
  readonly params: readonly unknown[];
  /**
   * For a page on a dialect that writes its LIMIT into the SQL (SQLite): the text before and after the limit, so a
   * handler writes the statement of another page size. Null otherwise.
   */
  readonly aroundLimit: readonly [string, string] | null;
}

/** `:name` for a placeholder (bare, or behind its column's encoder), else the fixed value. */
function describeParam(param: unknown): unknown {
  const slot = parameterSlot(param);
  return 'value' in slot ? slot.value : `:${slot.name}`;
}

/** A page size no real page has, to find where the dialect writes the LIMIT. */
const LIMIT_MARK = 987654321;

function aroundLimit(rt: CrudRuntime): readonly [string, string] | null {
  if (!rt.dialect.inlinesLimit) return null;
  const text = pageQuery(rt, rt.readable, undefined, undefined, LIMIT_MARK).toSQL().sql;
  const [before, after, ...more] = text.split(String(LIMIT_MARK));
  return more.length === 0 && after !== undefined ? [before, after] : null;
}

/** Each resource's shapes, built once: the compiler asks for them once per route and again for the resource's files. */
const shapesOf = new WeakMap<CrudRuntime, readonly FixedStatementShape[]>();

/** The SQL text of each fixed shape, placeholders in the database's own syntax, for the compiler and the statement files. */
export function fixedStatementShapes(rt: CrudRuntime): readonly FixedStatementShape[] {
  let shapes = shapesOf.get(rt);
  if (shapes === undefined) {
    shapes = Object.freeze(buildShapes(rt));
    shapesOf.set(rt, shapes);
  }
  return shapes;
}

function buildShapes(rt: CrudRuntime): FixedStatementShape[] {
  const queries: { name: FixedShapeName; query: PreparableQuery }[] = [
    ...fixedShapes(rt).map(({ name, query }) => ({ name, query: query() })),
    { name: 'countAll', query: rt.db.select({ count: count() }).from(rt.table) },
    { name: 'anyRow', query: rt.db.select({ id: rt.pkColumn }).from(rt.table).limit(inlineLimit(1)) },
    { name: 'deleteById', query: rt.db.delete(rt.table).where(eq(rt.pkColumn, columnPlaceholder('id', rt.pkColumn))) },
  ];
  return queries.map(({ name, query }) => {
    const { sql: text, params } = query.toSQL();
    return { name, sql: text, params: params.map(describeParam), aroundLimit: name === 'listPage' ? aroundLimit(rt) : null };
  });
}
