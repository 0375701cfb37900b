// PostgreSQL through pg: asynchronous driver, RETURNING supported, LIKE is case-sensitive under
// deterministic collations, SQLSTATE 23505 / 23503 for unique and foreign-key violations.
import { and, eq, sql } from 'drizzle-orm';
import { withIntegerRange } from '../crud/column-schema';
import { escapeLike, LIKE_ESCAPE, wrapPattern } from '../query/like-escape';
import { clientErrorFrom, driverErrorOf, nullWhenOutsideScope, OutsideScope, ROW_MISSING, rowCondition, type DriverCodes, type Dialect } from './dialect';
import { deleteReturning, insertReturning, updateReturning } from './returning-writes';

const DRIVER_CODES: DriverCodes = {
  unique: new Set(['23505']),
  foreignKey: new Set(['23503']),
  // Class 22, data exceptions: too long, out of range, NUL or bad encoding, bad text or datetime representation.
  invalidValue: new Set(['22001', '22003', '22021', '22P02', '22P05', '22007', '22008']),
};

/** Bits of the sized integer types; bigint in number mode holds what JSON numbers carry. */
const INTEGER_BITS: Record<string, number> = { PgSmallInt: 16, PgSmallSerial: 16, PgInteger: 32, PgSerial: 32 };

/** PostgreSQL text cannot hold U+0000. */
const NO_NUL = '^[^\\u0000]*$';

export const postgresDialect: Dialect = {
  name: 'postgres',

  refineColumnSchema(column, schema) {
    if (schema.type === 'integer') return withIntegerRange(schema, INTEGER_BITS[column.columnType] ?? null, false);
    if (column.dataType === 'string' && schema.type === 'string' && schema.pattern === undefined && schema.format === undefined) return { ...schema, pattern: NO_NUL };
    return schema;
  },

  checkColumn() {
    return null; // pg returns int8 as a string, so bigint values arrive whole
  },

  patternValue(kind, text) {
    return wrapPattern(escapeLike(text), kind, '%');
  },

  matchPattern(column, pattern) {
    return sql`${column} LIKE ${pattern} ESCAPE ${sql.raw(`'${LIKE_ESCAPE}'`)}`;
  },

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

  inlinesLimit: false,

  // A named statement: pg prepares it once per pooled connection and reuses the plan.
  prepare(query, name) {
    return query.prepare(name);
  },
  async ping(db) {
    await db.execute(sql`select 1`);
  },

  mapDriverError(error) {
    return clientErrorFrom(error, driverErrorOf(error)?.code, DRIVER_CODES);
  },
};
