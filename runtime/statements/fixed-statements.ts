// The fixed query shapes of a resource, prepared once (spec §8 rule 4): get by id and the default list
// page, both over the readable fields. The compiled handlers run them; the bundle records their SQL.
import { createHash } from 'node:crypto';
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

/** PostgreSQL's identifier limit (NAMEDATALEN - 1); names are ASCII, so bytes and characters agree. */
const MAX_STATEMENT_NAME = 63;

/**
 * Statement names are unique per database: pg keeps named statements per connection and refuses one name for
 * two texts. So the label is escaped, not flattened (`order-items` and `order_items` stay apart): `_` doubles,
 * `-` becomes `_0`, and the `.` between service and resource (a letter always follows it) becomes `_`.
 */
function statementName(rt: CrudRuntime, shape: string): string {
  const label = rt.label.replace(/_/g, '__').replace(/-/g, '_0').replace(/\./g, '_');
  const name = `tessera_${label}_${shape}`;
  if (name.length <= MAX_STATEMENT_NAME) return name;
  // PostgreSQL cuts names at 63 bytes, which could make two long labels one name: keep a prefix and a digest.
  const digest = createHash('sha256').update(name).digest('hex').slice(0, 16);
  return `${name.slice(0, MAX_STATEMENT_NAME - digest.length - 1)}_${digest}`;
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
