// A cached select on better-sqlite3, run as Drizzle's prepared query runs it (the same statement object, raw rows,
// logger) with the parameter and row mapping worked out once (prepared-select.ts), as postgres-select.ts and
// mysql-client.ts do: Drizzle checks each parameter's and each field's class at every call, 7% of a SQLite list with
// includes. It answers synchronously, as better-sqlite3 does; statements that return no rows keep Drizzle's execution.
import type { DbRow, PreparableQuery, PreparedQuery } from './dialect';
import { parameterFiller, selectRowReader, type DrizzleSelectParts, type ParameterFiller, type RowReader } from './prepared-select';

/** The parts of Drizzle's better-sqlite3 prepared query (drizzle-orm 0.45) that a cached select needs. */
interface DrizzlePrepared extends PreparedQuery, DrizzleSelectParts {
  readonly stmt: { raw(toggle?: boolean): { all(...params: unknown[]): unknown[][] } };
  readonly query: { readonly sql: string; readonly params: unknown[] };
  /** 'all' for a select or a write with RETURNING; 'run' and 'get' keep Drizzle's execution. */
  readonly executeMethod: string;
}

class ColumnSelect implements PreparedQuery {
  static of(statement: DrizzlePrepared): ColumnSelect | null {
    if (statement.executeMethod !== 'all' || typeof statement.stmt?.raw !== 'function') return null;
    const read = selectRowReader(statement);
    return read === null ? null : new ColumnSelect(statement, parameterFiller(statement.query.params), read);
  }

  private constructor(
    private readonly statement: DrizzlePrepared,
    private readonly fill: ParameterFiller,
    private readonly read: RowReader,
  ) {}

  execute(values: Record<string, unknown> = {}): DbRow[] {
    const params = this.fill(values);
    const { stmt, query, logger } = this.statement;
    logger.logQuery(query.sql, params);
    return stmt.raw().all(...params).map(this.read);
  }
}

/** Drizzle's prepared query for `query`, run without Drizzle's per-call mapping where it is a select of fields each under its own key. */
export function prepareSqliteQuery(query: PreparableQuery): PreparedQuery {
  const statement = query.prepare() as DrizzlePrepared;
  return ColumnSelect.of(statement) ?? statement;
}
