// spec §8 for the databases with RETURNING (SQLite, PostgreSQL): a single-row write without a scope is one
// cached statement per shape, which writes the row and reads it back at once.
import { ROW_MISSING, type AnyDatabase, type DbRow, type StatementSource, type WritePlan } from './dialect';
import { byIdPlaceholder, updateValues, valuePlaceholders, writeShape } from './write-statements';

/** One statement per set of written columns. */
export async function insertReturning(db: AnyDatabase, plan: WritePlan, statements: StatementSource, values: Record<string, unknown>): Promise<DbRow> {
  const build = () => db.insert(plan.table).values(valuePlaceholders(plan.table, values)).returning(plan.selection);
  return (await statements(writeShape('insert', values), build).execute(values))[0];
}

/** One statement per set of updated columns; ROW_MISSING when no row has that id. */
export async function updateReturning(db: AnyDatabase, plan: WritePlan, statements: StatementSource, id: unknown, values: Record<string, unknown>): Promise<DbRow | typeof ROW_MISSING> {
  const build = () => db.update(plan.table).set(valuePlaceholders(plan.table, values)).where(byIdPlaceholder(plan.pk)).returning(plan.selection);
  const [row] = await statements(writeShape('update', values), build).execute(updateValues(values, id));
  return row === undefined ? ROW_MISSING : row;
}

/** Whether a row with that id was deleted. */
export async function deleteReturning(db: AnyDatabase, plan: WritePlan, statements: StatementSource, id: unknown): Promise<boolean> {
  const build = () => db.delete(plan.table).where(byIdPlaceholder(plan.pk)).returning({ id: plan.pk });
  return (await statements('delete', build).execute(updateValues({}, id))).length > 0;
}
