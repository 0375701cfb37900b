// MySQL and MariaDB through mysql2: no RETURNING (rows are read back by primary key), LIKE follows the
// column's collation, errno 1062 for unique and 1216/1217/1451/1452 for foreign-key violations.
import { sql } from 'drizzle-orm';
import { withIntegerRange } from '../crud/column-schema';
import { escapeLike, LIKE_ESCAPE, wrapPattern } from '../query/like-escape';
import {
  byIdPlaceholder,
  clientErrorFrom,
  driverErrorOf,
  nullWhenOutsideScope,
  OutsideScope,
  ROW_MISSING,
  rowCondition,
  updateValues,
  valuePlaceholders,
  writeShape,
  type DriverCodes,
  type Dialect,
  type WritePlan,
} from './dialect';

const DRIVER_CODES: DriverCodes = {
  unique: new Set([1062, 1586]),
  foreignKey: new Set([1216, 1217, 1451, 1452]),
  // Data too long, out of range, incorrect value, truncated value: what strict mode refuses to store.
  invalidValue: new Set([1406, 1264, 1366, 1292, 1367]),
};

/** Bits of the sized integer types; others (bigint in number mode, serial) hold what JSON numbers carry. */
const INTEGER_BITS: Record<string, number> = { MySqlTinyInt: 8, MySqlSmallInt: 16, MySqlMediumInt: 24, MySqlInt: 32 };

/** Byte capacity of the TEXT types. A character takes at least one byte, so more characters never fit;
 * multi-byte text that still overflows is caught by errno 1406. */
const TEXT_BYTES: Record<string, number> = { tinytext: 255, text: 65535, mediumtext: 16777215, longtext: 4294967295 };


/** The mysql2 connection options behind a drizzle database: pools and connections, promise or callback style. */
function clientOptions(db: any): { supportBigNumbers?: boolean } | undefined {
  const client = db?.$client;
  const candidates = [client?.pool?.config?.connectionConfig, client?.config?.connectionConfig, client?.connection?.config, client?.config];
  return candidates.find((options) => options !== undefined && options !== null && 'supportBigNumbers' in options);
}

/** Reads the written row back inside the scope; a miss means it left the scope, so the write must roll back. */
async function readBack(db: any, plan: WritePlan, id: unknown) {
  const [row] =
    plan.statements !== null
      ? await plan.statements('read-back', () => db.select(plan.selection).from(plan.table).where(byIdPlaceholder(plan.pk)).limit(1)).execute(updateValues({}, id))
      : await db.select(plan.selection).from(plan.table).where(rowCondition(plan, id)).limit(1);
  if (row === undefined) throw new OutsideScope();
  return row;
}

/** Rows matched by an UPDATE or DELETE (mysql2 sets CLIENT_FOUND_ROWS, so unchanged matches count too). */
function affectedRows(result: any): number {
  return (Array.isArray(result) ? result[0] : result).affectedRows;
}

/** Without a scope there is nothing to roll back to, so the statements run outside a transaction. */
function withScopeTransaction<T>(db: any, plan: WritePlan, write: (tx: any) => Promise<T>): Promise<T | null> {
  return nullWhenOutsideScope(() => (plan.scope === undefined ? write(db) : db.transaction(write)));
}

export const mysqlDialect: Dialect = {
  name: 'mysql',

  refineColumnSchema(column, schema) {
    if (schema.type === 'integer') return withIntegerRange(schema, INTEGER_BITS[column.columnType] ?? null, column.getSQLType().includes('unsigned'));
    const textBytes = column.columnType === 'MySqlText' ? TEXT_BYTES[(column as { textType?: string }).textType ?? ''] : undefined;
    if (textBytes !== undefined && schema.maxLength === undefined) return { ...schema, maxLength: textBytes };
    return schema;
  },

  checkColumn(db, column) {
    // Without supportBigNumbers mysql2 hands BIGINT over as a JS number, silently dropping digits above 2^53.
    if (column.dataType !== 'bigint' || clientOptions(db)?.supportBigNumbers !== false) return null;
    return `bigint column "${column.name}" needs the mysql2 option supportBigNumbers: true (values above 2^53 would lose digits)`;
  },

  patternValue(kind, text) {
    return wrapPattern(escapeLike(text), kind, '%');
  },

  matchPattern(column, pattern) {
    return sql`${column} LIKE ${pattern} ESCAPE ${sql.raw(`'${LIKE_ESCAPE}'`)}`;
  },

  insert(db, plan, values) {
    if (plan.statements !== null) {
      return withScopeTransaction(db, plan, async () => {
        // spec §8: one statement per set of written columns; $returningId reports the key as below.
        const build = () => db.insert(plan.table).values(valuePlaceholders(plan.table, values)).$returningId();
        const [written] = await plan.statements!(writeShape('insert', values), build).execute(values);
        return readBack(db, plan, written[plan.pkKey]);
      });
    }
    return withScopeTransaction(db, plan, async (tx) => {
      // $returningId reports the primary key, whether auto-increment or filled by a $defaultFn.
      const [written] = await tx.insert(plan.table).values(values).$returningId();
      return readBack(tx, plan, written[plan.pkKey]);
    });
  },

  async update(db, plan, id, values) {
    if (plan.statements !== null) {
      return withScopeTransaction(db, plan, async () => {
        const build = () => db.update(plan.table).set(valuePlaceholders(plan.table, values)).where(byIdPlaceholder(plan.pk));
        const result = await plan.statements!(writeShape('update', values), build).execute(updateValues(values, id));
        if (affectedRows(result) === 0) return ROW_MISSING;
        return readBack(db, plan, id);
      });
    }
    return withScopeTransaction(db, plan, async (tx) => {
      const result = await tx.update(plan.table).set(values).where(rowCondition(plan, id));
      if (affectedRows(result) === 0) return ROW_MISSING;
      return readBack(tx, plan, id);
    });
  },

  async remove(db, plan, id) {
    if (plan.statements !== null) {
      const result = await plan.statements('delete', () => db.delete(plan.table).where(byIdPlaceholder(plan.pk))).execute(updateValues({}, id));
      return affectedRows(result) > 0;
    }
    const result = await db.delete(plan.table).where(rowCondition(plan, id));
    return affectedRows(result) > 0;
  },

  inlinesLimit: false,

  // drizzle's mysql2 prepared query keeps the SQL text built once; mysql2 binds the values.
  prepare(query) {
    return query.prepare();
  },
  async ping(db) {
    await db.execute(sql`select 1`);
  },

  mapDriverError(error) {
    return clientErrorFrom(error, driverErrorOf(error)?.errno, DRIVER_CODES);
  },
};
