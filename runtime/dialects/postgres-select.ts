// A cached select on node-postgres, run as Drizzle's prepared query runs it (the same named statement, query config,
// type parsers, logger and error) with the parameter and row mapping worked out once (prepared-select.ts), as
// mysql-client.ts does on mysql2: Drizzle checks each parameter's and each field's class at every call, a few
// percent of a PostgreSQL list's CPU. A query cache configured on Drizzle keeps Drizzle's own execution.
import { DrizzleQueryError } from 'drizzle-orm/errors';
import type { DbRow, PreparableQuery, PreparedQuery } from './dialect';
import { parameterFiller, selectRowReader, type DrizzleSelectParts, type ParameterFiller, type RowReader } from './prepared-select';
import { timestampDecoder } from './postgres-timestamps';

/** The parts of Drizzle's node-postgres prepared query (drizzle-orm 0.45) that a cached select needs. */
interface DrizzlePrepared extends PreparedQuery, DrizzleSelectParts {
  readonly client: { query(config: object, values: readonly unknown[]): Promise<{ rows: unknown[][] }> };
  /** `{ name, text, rowMode: 'array', types }`: the named statement each pooled connection parses once. */
  readonly queryConfig: { readonly text: string };
  readonly params: unknown[];
}

class ColumnSelect implements PreparedQuery {
  static of(statement: DrizzlePrepared): ColumnSelect | null {
    const read = statement.queryConfig === undefined ? null : selectRowReader(statement, timestampDecoder);
    return read === null ? null : new ColumnSelect(statement, parameterFiller(statement.params), read);
  }

  private constructor(
    private readonly statement: DrizzlePrepared,
    private readonly fill: ParameterFiller,
    private readonly read: RowReader,
  ) {}

  async execute(values: Record<string, unknown> = {}): Promise<DbRow[]> {
    const params = this.fill(values);
    const { client, queryConfig, logger } = this.statement;
    logger.logQuery(queryConfig.text, params);
    let rows: unknown[][];
    try {
      ({ rows } = await client.query(queryConfig, params));
    } catch (error) {
      throw new DrizzleQueryError(queryConfig.text, params, error as Error);
    }
    return rows.map(this.read);
  }
}

/** Drizzle's named prepared query for `query`, run without Drizzle's per-call mapping where it is a select of fields each under its own key. */
export function preparePostgresQuery(query: PreparableQuery, name: string | undefined): PreparedQuery {
  const statement = query.prepare(name) as DrizzlePrepared;
  return ColumnSelect.of(statement) ?? statement;
}
