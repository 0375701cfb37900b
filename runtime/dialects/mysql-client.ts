// How the MySQL dialect runs statements on mysql2: Drizzle's SQL text and decoders, run on mysql2's callback client
// with the per-call work of Drizzle's execution and transactions done once (issue 18). mysql.ts says what to run.
import { parameterFiller, selectRowReader, type DrizzleSelectParts, type ParameterFiller, type RowReader } from './prepared-select';
import type { DbRow, PreparableQuery, PreparedQuery, RawStatement } from './dialect';
import { nullWhenOutsideScope } from './write-statements';
import { datetimeDecoder } from './mysql-datetime';
import { datesAsText, textQuery, type DatesAsText } from './mysql-text-dates';

/** A mysql2 client with the promise API's `query`, as Drizzle's prepared queries call it. */
export interface QueryClient {
  query(options: object, values: readonly unknown[]): Promise<[unknown, unknown]>;
  /** How its queries read the date types as text (mysql-text-dates.ts); Drizzle's typeCast when left out. */
  readonly dates?: DatesAsText;
}

type Done<T> = (error: unknown, result: T, fields?: unknown) => void;

/** mysql2's callback API, which its promise pools and connections wrap. */
interface CallbackClient {
  query(options: object, values: readonly unknown[], done: Done<unknown>): unknown;
  /** Pools only. */
  getConnection?(done: Done<PooledConnection>): void;
}

interface PooledConnection extends CallbackClient {
  release(): void;
  destroy(): void;
}

/** The callback client behind a mysql2 client: callback ones have `promise()`, promise ones keep theirs in `pool` or `connection`. */
export function callbackClientOf(client: any): CallbackClient | null {
  const core = typeof client?.promise === 'function' ? client : (client?.pool ?? client?.connection);
  return typeof core?.query === 'function' ? core : null;
}

const queryClients = new WeakMap<object, QueryClient>();

/**
 * The promise `query` of a mysql2 pool or connection, run on the callback client it wraps. mysql2's promise API
 * captures a stack trace at every query (its `trace` option, on by default) to decorate errors that Tessera logs
 * without stacks anyway: a tenth of the server's CPU on a MariaDB list. The user's pool and its options are
 * untouched; a client of another shape is used as it is.
 */
export function untraced(client: any): QueryClient {
  let wrapped = queryClients.get(client);
  if (wrapped !== undefined) return wrapped;
  const core = callbackClientOf(client);
  wrapped =
    core === null
      ? (client as QueryClient)
      : {
          query: (options, values) =>
            new Promise((resolve, reject) => {
              core.query(options, values, (error, rows, fields) => (error ? reject(error) : resolve([rows, fields])));
            }),
          dates: datesAsText(core),
        };
  queryClients.set(client, wrapped);
  return wrapped;
}

/** The parts of Drizzle's mysql2 prepared query (drizzle-orm 0.45) that a cached select needs. */
interface DrizzlePrepared extends PreparedQuery, DrizzleSelectParts {
  client: QueryClient;
  readonly query: { readonly sql: string };
  readonly params: unknown[];
}

/**
 * A select of table columns, run as Drizzle's prepared query runs it (same SQL text, query options, logger, driver
 * values and decoders, but a DATETIME's: mysql-datetime.ts) with the parameter and row mapping worked out once
 * (prepared-select.ts). A query cache configured on Drizzle keeps Drizzle's own execution. `client` is read at each
 * call, as Drizzle's is (onConnection).
 */
class ColumnSelect implements PreparedQuery {
  static of(statement: DrizzlePrepared, server: RawStatement | null): ColumnSelect | null {
    const read = selectRowReader(statement, datetimeDecoder);
    if (read === null) return null;
    // Drizzle's SQL text and settings, the date types read as the client reads them.
    return new ColumnSelect(statement.client, textQuery(statement.query.sql, statement.client), parameterFiller(statement.params), read, statement.logger, server);
  }

  private constructor(
    readonly client: QueryClient,
    private readonly options: { readonly sql: string },
    private readonly fill: ParameterFiller,
    private readonly read: RowReader,
    private readonly logger: DrizzlePrepared['logger'],
    /** The statement the server prepares, for a call on the pool it was prepared on (not on a transaction's connection). */
    private readonly server: RawStatement | null,
    private readonly pool: QueryClient = client,
  ) {}

  async execute(values: Record<string, unknown> = {}): Promise<DbRow[]> {
    const params = this.fill(values);
    this.logger.logQuery(this.options.sql, params);
    const rows = this.server !== null && this.client === this.pool ? await this.server.rows(params) : (await this.client.query(this.options, params))[0];
    return (rows as unknown[][]).map(this.read);
  }

  release(): void {
    this.server?.release?.();
  }
}

/** A statement the server prepares, of `text` on a mysql2 pool or connection (mysql-statements.ts). */
export type ServerStatement = (client: unknown, text: string) => RawStatement;

/**
 * Drizzle's prepared query for `query`, run on the untraced client (a select of columns without Drizzle's per-call
 * mapping); with `onServer`, the statement cache's: prepared by the server where it runs on the pool.
 */
export function prepareQuery(query: PreparableQuery, onServer: ServerStatement | null = null): PreparedQuery {
  const statement = query.prepare() as DrizzlePrepared;
  const server = onServer === null ? null : onServer(statement.client, statement.query.sql);
  statement.client = untraced(statement.client);
  return ColumnSelect.of(statement, server) ?? statement;
}

/**
 * A prepared statement run on the transaction's connection. Drizzle's mysql2 prepared query keeps the client it was
 * prepared on (the pool) in `client` and reads it at each execution: this view of it runs the same SQL text on the
 * connection that holds the transaction (issue 17: on the pool it could run on any connection).
 */
export function onConnection(statement: PreparedQuery, connection: QueryClient): PreparedQuery {
  return Object.create(statement, { client: { value: connection } });
}

function connectionOf(pool: CallbackClient & { getConnection: NonNullable<CallbackClient['getConnection']> }): Promise<PooledConnection> {
  return new Promise((resolve, reject) => pool.getConnection((error, connection) => (error ? reject(error) : resolve(connection))));
}

/**
 * A write and the read-back of its row, in one transaction on one pooled connection (issue 17): the row lock the
 * write takes holds until the read, so the answer is the row as this request left it, whatever other requests write.
 * Runs what Drizzle's `db.transaction` runs (begin, commit, or rollback when the write throws, then release), on the
 * callback client; a connection whose rollback failed is destroyed rather than returned to the pool. A write that
 * left the scope (OutsideScope) was rolled back and answers null.
 */
export function inTransaction<T>(db: any, write: (connection: QueryClient) => Promise<T>): Promise<T | null> {
  const core = callbackClientOf(db.$client);
  if (core === null) throw new Error('the MySQL database has no mysql2 client behind it');
  return nullWhenOutsideScope(async () => {
    const pooled = typeof core.getConnection === 'function' ? await connectionOf(core as Parameters<typeof connectionOf>[0]) : null;
    const connection = untraced(pooled ?? core);
    let reusable = true;
    try {
      await connection.query({ sql: 'begin' }, []);
      try {
        const result = await write(connection);
        await connection.query({ sql: 'commit' }, []);
        return result;
      } catch (error) {
        await connection.query({ sql: 'rollback' }, []).catch(() => (reusable = false));
        throw error;
      }
    } finally {
      if (pooled !== null) reusable ? pooled.release() : pooled.destroy();
    }
  });
}
