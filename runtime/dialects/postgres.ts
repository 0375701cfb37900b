// PostgreSQL through pg: asynchronous driver, RETURNING supported, LIKE is case-sensitive under
// deterministic collations, SQLSTATE 23505 / 23503 for unique and foreign-key violations.
import { and, eq, sql } from 'drizzle-orm';
import { escapeLike, LIKE_ESCAPE, wrapPattern } from '../query/like-escape';
import { conflictFrom, driverErrorOf, nullWhenOutsideScope, OutsideScope, ROW_MISSING, rowCondition, type ConflictCodes, type Dialect } from './dialect';

const CONFLICT_CODES: ConflictCodes = { unique: new Set(['23505']), foreignKey: new Set(['23503']) };

export const postgresDialect: Dialect = {
  name: 'postgres',

  matchPattern(column, kind, text) {
    return sql`${column} LIKE ${wrapPattern(escapeLike(text), kind, '%')} ESCAPE ${sql.raw(`'${LIKE_ESCAPE}'`)}`;
  },

  async insert(db, plan, values) {
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
    const deleted = await db.delete(plan.table).where(rowCondition(plan, id)).returning({ id: plan.pk });
    return deleted.length > 0;
  },

  async ping(db) {
    await db.execute(sql`select 1`);
  },

  mapDriverError(error) {
    return conflictFrom(error, driverErrorOf(error)?.code, CONFLICT_CODES);
  },
};
