// PostgreSQL through pg: asynchronous driver, RETURNING supported, LIKE is case-sensitive under
// deterministic collations, SQLSTATE 23505 / 23503 for unique and foreign-key violations.
import { and, eq, sql } from 'drizzle-orm';
import { OutsideScope, ROW_MISSING, type Dialect } from './dialect';
import { clientErrorFrom, describeWith, driverErrorOf, unavailableFrom } from './driver-errors';
import { logToDrizzle } from './drizzle-logger';
import { postgresArrayInsert, qualifiedName } from './postgres-array-insert';
import { withIntegerRange } from './integer-range';
import { int64TextSchema } from './number-text';
import { timestampDecoder } from './postgres-timestamps';
import { NO_NUL_PATTERN } from '../json-schema';
import { likePatternValue, matchLike } from './like-escape';
import { postgresNestedRows } from './postgres-nested-rows';
import { preparePostgresQuery } from './postgres-select';
import { applyPostgresTimeouts, postgresTarget } from './postgres-pool';
import { DRIVER_CODES, REASONS, UNAVAILABLE } from './postgres-errors';
import { nullWhenOutsideScope, rowCondition } from './write-statements';
import { deleteReturning, insertReturning, updateReturning } from './returning-writes';
import { DRIZZLE_TYPES, postgresCheckedWrite, postgresWriteThenRead, runPostgresOnce, transactPostgres } from './postgres-transactions';

/** Bits of the sized integer types; bigint in number mode holds what JSON numbers carry. */
const INTEGER_BITS: Record<string, number> = { PgSmallInt: 16, PgSmallSerial: 16, PgInteger: 32, PgSerial: 32 };

/** bigint and bigserial in bigint mode: 64-bit integers, which JSON carries as decimal strings. */
const INT64_TYPES = new Set(['PgBigInt64', 'PgBigSerial64']);


export const postgresDialect: Dialect = {
  name: 'postgres',

  refineColumnSchema(column, schema) {
    if (schema.type === 'integer') return withIntegerRange(schema, INTEGER_BITS[column.columnType] ?? null, false);
    if (INT64_TYPES.has(column.columnType)) return int64TextSchema(false);
    if (column.dataType === 'string' && schema.type === 'string' && schema.pattern === undefined && schema.format === undefined) return { ...schema, pattern: NO_NUL_PATTERN };
    return schema;
  },

  checkColumn() {
    return null; // pg returns int8 as a string, so bigint values arrive whole
  },

  patternValue: likePatternValue,
  matchPattern: matchLike,

  async insert(db, plan, values) {
    // spec §8: one cached statement per set of written columns.
    if (plan.statements !== null) return insertReturning(db, plan, plan.statements, values);
    if (plan.scope === undefined) {
      // Fast path: one statement, no transaction needed.
      const [row] = await db.insert(plan.table).values(values).returning(plan.selection);
      return row;
    }
    return nullWhenOutsideScope(() =>
      db.transaction(async (tx: any) => {
        const [written] = await tx.insert(plan.table).values(values).returning({ id: plan.pk });
        const [row] = await tx.select(plan.selection).from(plan.table).where(and(eq(plan.pk, written.id), plan.scope)).limit(1);
        if (row === undefined) throw new OutsideScope();
        return row;
      }),
    );
  },

  async update(db, plan, id, values) {
    if (plan.statements !== null) return updateReturning(db, plan, plan.statements, id, values);
    if (plan.scope === undefined) {
      const [row] = await db.update(plan.table).set(values).where(eq(plan.pk, id)).returning(plan.selection);
      return row === undefined ? ROW_MISSING : row;
    }
    return nullWhenOutsideScope(() =>
      db.transaction(async (tx: any) => {
        const [hit] = await tx.update(plan.table).set(values).where(rowCondition(plan, id)).returning({ id: plan.pk });
        if (hit === undefined) return ROW_MISSING;
        const [row] = await tx.select(plan.selection).from(plan.table).where(rowCondition(plan, id)).limit(1);
        if (row === undefined) throw new OutsideScope();
        return row;
      }),
    );
  },

  async remove(db, plan, id) {
    if (plan.statements !== null) return deleteReturning(db, plan, plan.statements, id);
    const deleted = await db.delete(plan.table).where(rowCondition(plan, id)).returning({ id: plan.pk });
    return deleted.length > 0;
  },

  transact: (db, work) => transactPostgres(db, work),

  // Measured with pgbench on the relations bench's page of 20 posts with their includes, prepared: 3,680-3,990 tps
  // with `LIMIT $n OFFSET $n` (planned at each execution), 4,610-4,650 with `LIMIT 20` and no OFFSET (its generic
  // plan, planned once).
  inlinesLimit: true,
  limitsPerKey: 'window',
  nestedRows: postgresNestedRows,
  nullsFirstAscending: false,
  rowDecoder: timestampDecoder,
  hasReturning: true,
  insertReturns: () => true,
  returningInsert: (insert, selection) => insert.returning(selection),
  arrayInsert: postgresArrayInsert,
  learnServer: async () => {},

  // A named statement: pg prepares it once per pooled connection and reuses the plan.
  prepare: preparePostgresQuery,
  async ping(db) {
    await db.execute(sql`select 1`);
  },

  mapDriverError(error) {
    return clientErrorFrom(error, driverErrorOf(error)?.code, DRIVER_CODES) ?? unavailableFrom(error, UNAVAILABLE);
  },

  async close(db) {
    // A pool (or client) ended twice throws; a shutdown may meet one the application already ended.
    if (db.$client.ending !== true && db.$client.ended !== true) await db.$client.end();
  },

  describeDriverError(error) {
    return describeWith(error, (driver) => driver.code, REASONS);
  },

  rawStatement(db, text, name) {
    const client = db.$client as { query(config: object, values: readonly unknown[]): Promise<{ rows: unknown[][]; rowCount: number | null }> };
    // Named: each pooled connection parses it once (the statement cache's rule; off, it is not used at all).
    const config = { name, text, rowMode: 'array', types: DRIZZLE_TYPES };
    return {
      rows: async (values) => (await client.query(config, values)).rows,
      run: async (values) => (await client.query(config, values)).rowCount ?? 0,
    };
  },

  async runOnce(db, statement) {
    logToDrizzle(db, statement);
    return runPostgresOnce(db.$client, statement);
  },

  writeThenRead: (db, write, next) => postgresWriteThenRead(db.$client, write, next),
  checkedWrite: postgresCheckedWrite,

  async listColumns(db, table) {
    const result = (await db.execute(
      sql`select attname as name from pg_attribute where attrelid = to_regclass(${qualifiedName(table)}) and attnum > 0 and not attisdropped`,
    )) as { rows: { name: string }[] };
    return result.rows.length === 0 ? null : result.rows.map((row) => row.name);
  },

  applyTimeouts: (db, given) => applyPostgresTimeouts(db.$client, given),
  describeTarget: (db) => postgresTarget(db.$client),

  watchClient(db, report) {
    // pg's Pool emits 'error' when an idle client fails (a server restart ends every session with 57P01);
    // without a listener Node throws it and the process dies. The pool drops that client and connects anew.
    const client = db.$client;
    if (watchedClients.has(client) || typeof client.on !== 'function') return;
    watchedClients.add(client);
    client.on('error', (error: { code?: unknown; name?: unknown }) => {
      report(`postgres: an idle connection failed (${String(error?.code ?? error?.name ?? 'Error')}); the pool replaces it`);
    });
  },
};

/** Pools already given an error listener (several servers may serve one database). */
const watchedClients = new WeakSet<object>();
