// The fixed query shapes of a resource (spec §8 rule 4): get by id and the default list page, both over
// the readable fields. The server constructor prepares them into the cache; the bundle records their SQL.
import { is, Param, Placeholder } from 'drizzle-orm';
import type { CrudRuntime } from '../crud/crud-runtime';
import { getKey, getQuery, pageKey, pageQuery, statementName } from '../crud/read-queries';
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
  for (const shape of fixedShapes(rt)) {
    if (shape.action !== action) continue;
    cache.preload(shape.key, () => {
      const query = shape.query();
      return prepareNowOrOnFirstUse(rt, query, statementName(query));
    });
  }
}

/** One fixed shape as the bundle records it. */
export interface FixedStatementShape {
  readonly name: 'getById' | 'listPage';
  /** SQL with the database's own placeholders (`?`, `$1`). */
  readonly sql: string;
  /** What binds to each placeholder, in order: `:name` for a value given per call, else the fixed value. */
  readonly params: readonly unknown[];
}

/** `:name` for a placeholder (bare, or behind its column's encoder), else the fixed value. */
function describeParam(param: unknown): unknown {
  const value = is(param, Param) ? param.value : param;
  return is(value, Placeholder) ? `:${value.name}` : value;
}

/** The SQL text of each fixed shape, placeholders in the database's own syntax, for the bundle's statement files. */
export function fixedStatementShapes(rt: CrudRuntime): FixedStatementShape[] {
  return fixedShapes(rt).map(({ name, query }) => {
    const { sql: text, params } = query().toSQL();
    return { name, sql: text, params: params.map(describeParam) };
  });
}
