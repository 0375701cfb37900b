// The fixed query shapes of a resource, prepared once (spec §8 rule 4): get by id and the default list
// page, both over the readable fields. The compiled handlers run them; the bundle records their SQL.
import { asc, eq, getTableColumns, is, Placeholder, sql, type Table } from 'drizzle-orm';
import type { CrudRuntime } from '../crud/crud-runtime';
import type { PreparableQuery, PreparedQuery } from '../dialects/dialect';

export interface FixedStatements {
  /** `WHERE pk = :id LIMIT 1`. */
  readonly getById: PreparedQuery;
  /** Primary-key order, `LIMIT :limit OFFSET :offset`. */
  readonly listPage: PreparedQuery;
}

/** spec §8 rule 3: a column filled by an application function (`$defaultFn`, `$onUpdateFn`) rules caching out. */
export function hasApplicationDefaults(table: Table): boolean {
  return Object.values(getTableColumns(table)).some((column) => column.defaultFn !== undefined || column.onUpdateFn !== undefined);
}

/** spec §8 rules 2-4: only resources without a scope function and without application defaults. */
export function canPrepareFixedStatements(rt: CrudRuntime): boolean {
  return rt.access.scope === null && !hasApplicationDefaults(rt.table);
}

function fixedQueries(rt: CrudRuntime): Record<keyof FixedStatements, PreparableQuery> {
  return {
    getById: rt.db.select(rt.defaultSelection).from(rt.table).where(eq(rt.pkColumn, sql.placeholder('id'))).limit(1),
    listPage: rt.db
      .select(rt.defaultSelection)
      .from(rt.table)
      .orderBy(asc(rt.pkColumn))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset')),
  };
}

/** Statement names are unique per database: pg keeps named statements per connection. */
function statementName(rt: CrudRuntime, shape: string): string {
  return `tessera_${rt.label.replace(/[^A-Za-z0-9]/g, '_')}_${shape}`;
}

/**
 * Built once, prepared on first execution: better-sqlite3 prepares against the live schema, and an
 * application may create its tables after the server is built (migrations at start, tests).
 */
function preparedOnFirstUse(rt: CrudRuntime, query: PreparableQuery, name: string): PreparedQuery {
  let prepared: PreparedQuery | null = null;
  return {
    execute(values) {
      prepared ??= rt.dialect.prepare(query, name);
      return prepared.execute(values);
    },
  };
}

/** The fixed statements, or null when spec §8 says this resource's statements are not cached. */
export function prepareFixedStatements(rt: CrudRuntime): FixedStatements | null {
  if (!canPrepareFixedStatements(rt)) return null;
  const queries = fixedQueries(rt);
  return {
    getById: preparedOnFirstUse(rt, queries.getById, statementName(rt, 'get')),
    listPage: preparedOnFirstUse(rt, queries.listPage, statementName(rt, 'list')),
  };
}

/** One fixed shape as the bundle records it. */
export interface FixedStatementShape {
  readonly name: keyof FixedStatements;
  /** SQL with the database's own placeholders (`?`, `$1`). */
  readonly sql: string;
  /** What binds to each placeholder, in order: `:name` for a value given per call, else the fixed value. */
  readonly params: readonly unknown[];
}

/** The SQL text of each fixed shape, placeholders in the database's own syntax, for the bundle's statement files. */
export function fixedStatementShapes(rt: CrudRuntime): FixedStatementShape[] {
  const queries = fixedQueries(rt);
  return (Object.keys(queries) as (keyof FixedStatements)[]).map((name) => {
    const { sql: text, params } = queries[name].toSQL();
    return { name, sql: text, params: params.map((param) => (is(param, Placeholder) ? `:${param.name}` : param)) };
  });
}
