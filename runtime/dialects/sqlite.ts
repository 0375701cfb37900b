// SQLite through better-sqlite3: synchronous driver, RETURNING supported, GLOB for case-sensitive
// substring matches (matching the BINARY collation SQLite columns have by default).
import { and, eq, getTableName, sql } from 'drizzle-orm';
import { OutsideScope, ROW_MISSING, type Dialect } from './dialect';
import { clientErrorFrom, describeWith, driverErrorOf, unavailableFrom, type DriverCodes, type DriverReason, type UnavailableSignals } from './driver-errors';
import { withIntegerRange } from './integer-range';
import { escapeGlob, wrapPattern } from './like-escape';
import { nullWhenOutsideScope, rowCondition } from './write-statements';
import { deleteReturning, insertReturning, updateReturning } from './returning-writes';
import { runSqliteOnce, sqliteCheckedWrite, sqliteWriteThenRead, transactSqlite } from './sqlite-transactions';
import { prepareSqliteQuery } from './sqlite-select';

const DRIVER_CODES: DriverCodes = {
  unique: new Set(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_CONSTRAINT_PRIMARYKEY']),
  foreignKey: new Set(['SQLITE_CONSTRAINT_FOREIGNKEY']),
  invalidValue: new Set(['SQLITE_TOOBIG', 'SQLITE_MISMATCH']),
};

/** SQLite's messages that name only identifiers (tables, columns) or none; anything else is logged by code alone. */
const IDENTIFIER = '([A-Za-z0-9_$."`]+)';
const REASONS: readonly DriverReason[] = [
  { code: 'SQLITE_ERROR', message: new RegExp(`^no such table: ${IDENTIFIER}$`), reason: ([table]) => `no such table: ${table}` },
  { code: 'SQLITE_ERROR', message: new RegExp(`^no such column: ${IDENTIFIER}$`), reason: ([column]) => `no such column: ${column}` },
  { code: 'SQLITE_ERROR', message: new RegExp(`^table ${IDENTIFIER} has no column named ${IDENTIFIER}$`), reason: ([table, column]) => `table ${table} has no column named ${column}` },
  { code: 'SQLITE_BUSY', message: /^database is locked$/, reason: () => 'database is locked' },
  { code: 'SQLITE_READONLY', message: /^attempt to write a readonly database$/, reason: () => 'the database file is read-only' },
  { code: 'SQLITE_FULL', message: /^database or disk is full$/, reason: () => 'database or disk is full' },
];

/**
 * An embedded file has no connection to lose. SQLITE_BUSY means another process (a second worker, a
 * backup, a migration) held the write lock for longer than the busy timeout: a retry soon succeeds, so it
 * answers 503 like an unreachable server. A closed database (after a graceful shutdown) does too.
 */
const UNAVAILABLE: UnavailableSignals = {
  codes: new Set(['SQLITE_BUSY', 'SQLITE_BUSY_RECOVERY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_BUSY_TIMEOUT']),
  messages: new Set(['The database connection is not open']),
};

export const sqliteDialect: Dialect = {
  name: 'sqlite',

  refineColumnSchema(_column, schema) {
    // SQLite integers hold 64 bits, but JSON numbers carry only 53 exactly (and 1e20 would be stored as REAL).
    return schema.type === 'integer' ? withIntegerRange(schema, null, false) : schema;
  },

  checkColumn() {
    return null;
  },

  patternValue(kind, text) {
    return wrapPattern(escapeGlob(text), kind, '*');
  },

  matchPattern(column, pattern) {
    // GLOB is case-sensitive, like `=` under SQLite's default BINARY collation; LIKE would fold ASCII case.
    return sql`${column} GLOB ${pattern}`;
  },

  // better-sqlite3 runs a transaction synchronously: its callback must not await, or other
  // requests would run inside it. Every statement below uses the sync .get()/.all(). A write with RETURNING
  // always takes .all(): .get() leaves it unfinished, holding a read mark on the WAL, so SQLite can never
  // restart the WAL and it grows with every write (91 MB after 20,000 inserts, against 4 MB with .all()).
  async insert(db, plan, values) {
    // spec §8: one cached statement per set of written columns.
    if (plan.statements !== null) return insertReturning(db, plan, plan.statements, values);
    if (plan.scope === undefined) {
      // Fast path: one statement, no transaction needed.
      return db.insert(plan.table).values(values).returning(plan.selection).all()[0];
    }
    return nullWhenOutsideScope(() =>
      db.transaction((tx: any) => {
        const [written] = tx.insert(plan.table).values(values).returning({ id: plan.pk }).all();
        const row = tx.select(plan.selection).from(plan.table).where(and(eq(plan.pk, written.id), plan.scope)).get();
        if (row === undefined) throw new OutsideScope();
        return row;
      }),
    );
  },

  async update(db, plan, id, values) {
    if (plan.statements !== null) return updateReturning(db, plan, plan.statements, id, values);
    if (plan.scope === undefined) {
      const [row] = db.update(plan.table).set(values).where(eq(plan.pk, id)).returning(plan.selection).all();
      return row === undefined ? ROW_MISSING : row;
    }
    return nullWhenOutsideScope(() =>
      db.transaction((tx: any) => {
        const [hit] = tx.update(plan.table).set(values).where(rowCondition(plan, id)).returning({ id: plan.pk }).all();
        if (hit === undefined) return ROW_MISSING;
        const row = tx.select(plan.selection).from(plan.table).where(rowCondition(plan, id)).get();
        if (row === undefined) throw new OutsideScope();
        return row;
      }),
    );
  },

  async remove(db, plan, id) {
    if (plan.statements !== null) return deleteReturning(db, plan, plan.statements, id);
    const deleted = db.delete(plan.table).where(rowCondition(plan, id)).returning({ id: plan.pk }).all();
    return deleted.length > 0;
  },

  transact: (db, work) => transactSqlite(db, work),

  // Measured on a get by id: 12 µs with `LIMIT ?` (recompiled at every step), 6 µs with `LIMIT 1`.
  inlinesLimit: true,
  limitsPerKey: 'subquery',
  nullsFirstAscending: true,
  rowDecoder: () => null,
  hasReturning: true,
  insertReturns: () => true,
  returningInsert: (insert, selection) => insert.returning(selection),
  learnServer: async () => {},

  // better-sqlite3 statements have no name; drizzle keeps the prepared statement object.
  prepare: prepareSqliteQuery,
  async ping(db) {
    db.get(sql`select 1`);
  },

  mapDriverError(error) {
    return clientErrorFrom(error, driverErrorOf(error)?.code, DRIVER_CODES) ?? unavailableFrom(error, UNAVAILABLE);
  },

  async close(db) {
    if (db.$client.open === true) db.$client.close();
  },

  describeDriverError(error) {
    return describeWith(error, (driver) => driver.code, REASONS);
  },

  rawStatement(db, text) {
    type Statement = { all(...values: unknown[]): unknown[][]; run(...values: unknown[]): { changes: number } };
    const prepare = (): Statement => {
      const created = db.$client.prepare(text);
      return created.reader ? created.raw(true) : created;
    };
    // Prepared now, or on first use when the table is not there yet: better-sqlite3 prepares against the live
    // schema, and an application may create its tables after the server is built.
    let statement: Statement | null = null;
    try {
      statement = prepare();
    } catch {
      statement = null;
    }
    const prepared = (): Statement => (statement ??= prepare());
    return {
      rows: (values) => prepared().all(...values),
      run: (values) => prepared().run(...values).changes,
    };
  },

  runOnce: runSqliteOnce,

  writeThenRead: (db, write, next) => sqliteWriteThenRead(db, write, next),
  checkedWrite: sqliteCheckedWrite,

  async listColumns(db, table) {
    const rows = db.all(sql`select name from pragma_table_info(${getTableName(table)})`) as { name: string }[];
    return rows.length === 0 ? null : rows.map((row) => row.name);
  },

  watchClient() {
    // An embedded file has no connections to lose.
  },

  // In the process and synchronous: no connection to open or wait for, no answer to lose (the write lock's wait is
  // better-sqlite3's busy timeout).
  applyTimeouts: () => null,
  describeTarget: (db) => `file ${String(db.$client?.name ?? '')}`,
};
