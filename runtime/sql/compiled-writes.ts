// create and update as the compiled handlers run them (issue 27), after the handler ran authorize and the before-
// hooks: the columns of an application function (`$defaultFn`, `$onUpdateFn`) evaluated here, per row, and bound
// as parameters like every written value; one SQL text per set of written columns, written by Drizzle once. A call
// spec §8 lets use the statement cache runs the cached statement (fixed-writes.ts); any other runs its text prepared
// for the call only: with RETURNING and no scope one statement; with a scope, where the database has RETURNING and the
// scope reads only the row's columns, the write answering its row and the scope's verdict on it, undone when the
// verdict fails (Dialect.checkedWrite: one statement on PostgreSQL); else the write and the read-back of its row
// inside the scope in one transaction (Dialect.writeThenRead; issue 17). The row comes back as an array for the row writer.
import { and, eq, sql, type Column, type SQL } from 'drizzle-orm';
import { columnPlaceholder } from '../dialects/column-placeholder';
import { ROW_MISSING, type CheckedWrite, type Dialect, type OnceAnswer } from '../dialects/dialect';
import { primaryOf } from '../dialects/read-replicas';
import { byIdPlaceholder, updateValues, writeShape } from '../dialects/write-statements';
import { fixedInsert, fixedUpdate } from './fixed-writes';
import { cacheFor, type ResourcePlan, type Scope } from './resource-plan';
import { ScopedText, type BuiltQuery } from './scoped-text';
import { inlineLimit } from './select-shapes';
import { isRowCondition } from './where';
import { functionColumns, placeholdersOf, ShapeTexts, textOf, withApplicationValues, withoutUpdateFunctions } from './write-texts';
import { afterValue } from '../model/maybe-pending';

export type WrittenRow = unknown[];

/** The row with this key inside the scope: the read-back of a write, in its transaction. */
function readBackText(plan: ResourcePlan): ScopedText {
  return ScopedText.of(plan.db, (scope) =>
    plan.db
      .select(plan.defaultSelection)
      .from(plan.table)
      .where(and(eq(plan.pkColumn, columnPlaceholder('id', plan.pkColumn)), scope))
      .limit(inlineLimit(1)),
  );
}

/**
 * The scope may be checked in the write's own RETURNING (Dialect.checkedWrite): the database can, and the condition
 * reads only the row's own columns (a scope function's where), so RETURNING sees what a read-back would.
 */
function checksInReturning(dialect: Dialect, scope: SQL): boolean {
  return dialect.checkedWrite !== undefined && isRowCondition(scope);
}

/** The row's columns, then the dialect's verdict on it by the scope's condition (a true one where none is written in). */
function withVerdict(checked: CheckedWrite, selection: Record<string, Column>, place: SQL | undefined): Record<string, unknown> {
  return { ...selection, '\u0000inside': checked.verdict(place ?? sql`true`) };
}

function firstRow(answer: OnceAnswer | Promise<OnceAnswer>): WrittenRow | undefined | Promise<WrittenRow | undefined> {
  return afterValue(answer, (done) => done.rows[0]);
}

/** A scoped write's row, or null when it fell outside the scope (a create never misses its row). */
function insideOrNull(row: WrittenRow | null | typeof ROW_MISSING): WrittenRow | null {
  return row === ROW_MISSING ? null : row;
}

/** What a compiled write answers: synchronously where the database does (SQLite), so the handler awaits nothing. */
export type Written<T> = T | Promise<T>;

/**
 * create: the row written with `data` (the hooks' answer), read back inside the scope; null when it fell outside
 * (rolled back).
 */
export function compiledInsert(plan: ResourcePlan): (data: Record<string, unknown>, scope: Scope) => Written<WrittenRow | null> {
  const cached = fixedInsert(plan);
  const functions = functionColumns(plan);
  const texts = new ShapeTexts();
  const readBack = readBackText(plan);
  const { pkColumn, pkKey } = plan;
  const db = primaryOf(plan.db);
  const insert = () => plan.db.insert(plan.table);
  return (data, scope) => {
    if (cached !== null && cacheFor(plan, scope) !== null) return afterValue(cached(data), (rows) => rows[0]);
    const { values, hasSql } = withApplicationValues(plan, 'insert', data, functions);
    const shape = texts.of(writeShape('insert', values), hasSql);
    // The columns' placeholders, for a text not written yet (once per shape).
    const placeholders = () => placeholdersOf(plan, values);
    if (scope !== undefined && checksInReturning(plan.dialect, scope)) {
      const checked = (shape.checked ??= ScopedText.of(plan.db, (place) => plan.dialect.returningInsert(insert().values(placeholders()), withVerdict(plan.dialect.checkedWrite!, plan.defaultSelection, place) as never) as BuiltQuery));
      return afterValue(plan.dialect.checkedWrite!.run(db, checked.statement(values, scope)), insideOrNull);
    }
    const writeThenRead = () => {
      const write = (shape.insert ??= textOf(plan.dialect.hasReturning ? insert().values(placeholders()).returning({ id: pkColumn }) : insert().values(placeholders())));
      const row = plan.dialect.writeThenRead(db, { text: write.text, values: write.fill(values) }, (answer) => {
        // The key: the one the database answers (RETURNING), else the one written, else the auto-increment's.
        const key = plan.dialect.hasReturning ? pkColumn.mapFromDriverValue(answer.rows[0][0]) : (values[pkKey] ?? answer.insertId);
        return readBack.statement({ id: key }, scope);
      });
      return afterValue(row, insideOrNull);
    };
    if (scope !== undefined) return writeThenRead();
    return afterValue(plan.dialect.insertReturns(db), (returns) => {
      if (!returns) return writeThenRead();
      const statement = (shape.returningRow ??= textOf(plan.dialect.returningInsert(insert().values(placeholders()), plan.defaultSelection)));
      return afterValue(firstRow(plan.dialect.runOnce(db, { text: statement.text, values: statement.fill(values) })), (row) => row!);
    });
  };
}

/**
 * update: the row with this id written with `data`, read back inside the scope; ROW_MISSING when there is none
 * inside the scope, null when the write took it outside (rolled back).
 */
export function compiledUpdate(plan: ResourcePlan): (data: Record<string, unknown>, id: unknown, scope: Scope) => Written<WrittenRow | null | typeof ROW_MISSING> {
  const cached = fixedUpdate(plan);
  const functions = functionColumns(plan).filter(([, column]) => column.onUpdateFn !== undefined);
  const texts = new ShapeTexts();
  const readBack = readBackText(plan);
  const db = primaryOf(plan.db);
  return (data, id, scope) => {
    const key = plan.pkCodec === null ? id : plan.pkCodec.decode(id);
    if (cached !== null && plan.pkCodec === null && cacheFor(plan, scope) !== null) return afterValue(cached(data, id), (rows) => rows[0] ?? ROW_MISSING);
    const { values, hasSql } = withApplicationValues(plan, 'update', data, functions);
    const shape = texts.of(writeShape('update', values), hasSql);
    // The columns' placeholders, for a text not written yet (once per shape).
    const placeholders = () => placeholdersOf(plan, values) as Record<string, SQL>;
    const named = updateValues(values, key);
    if (scope === undefined && plan.dialect.hasReturning) {
      const statement = (shape.returningRow ??= withoutUpdateFunctions(functions, () =>
        textOf(plan.db.update(plan.table).set(placeholders()).where(byIdPlaceholder(plan.pkColumn)).returning(plan.defaultSelection)),
      ));
      return afterValue(firstRow(plan.dialect.runOnce(db, { text: statement.text, values: statement.fill(named) })), (row) => row ?? ROW_MISSING);
    }
    if (scope !== undefined && checksInReturning(plan.dialect, scope)) {
      const checked = (shape.checked ??= withoutUpdateFunctions(functions, () =>
        ScopedText.of(plan.db, (place) => plan.db.update(plan.table).set(placeholders()).where(and(byIdPlaceholder(plan.pkColumn), place)).returning(withVerdict(plan.dialect.checkedWrite!, plan.defaultSelection, place))),
      ));
      return plan.dialect.checkedWrite!.run(db, checked.statement(named, scope));
    }
    const update = (shape.update ??= withoutUpdateFunctions(functions, () =>
      ScopedText.of(plan.db, (place) => plan.db.update(plan.table).set(placeholders()).where(and(byIdPlaceholder(plan.pkColumn), place))),
    ));
    return plan.dialect.writeThenRead(db, update.statement(named, scope), (answer) => (answer.changes === 0 ? null : readBack.statement({ id: key }, scope)));
  };
}
