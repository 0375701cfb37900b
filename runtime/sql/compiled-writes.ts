// create and update as the compiled handlers run them (issue 27), after the handler ran authorize and the before-
// hooks: the columns of an application function (`$defaultFn`, `$onUpdateFn`) evaluated here, per row, and bound
// as parameters like every written value; one SQL text per set of written columns, written by Drizzle once. A call
// spec §8 lets use the statement cache runs the cached statement (fixed-writes.ts); any other runs its text prepared
// for the call only: with RETURNING and no scope one statement, else the write and the read-back of its row inside
// the scope in one transaction (Dialect.writeThenRead; issue 17). The row comes back as an array for the row writer.
import { and, eq, is, SQL, type Column } from 'drizzle-orm';
import { columnPlaceholder } from '../dialects/column-placeholder';
import { ROW_MISSING, type OnceAnswer, type PreparableQuery } from '../dialects/dialect';
import { parameterFiller, type ParameterFiller } from '../dialects/prepared-select';
import { primaryOf } from '../dialects/read-replicas';
import { byIdPlaceholder, updateValues, valuePlaceholders, writeShape } from '../dialects/write-statements';
import { fixedInsert, fixedUpdate } from './fixed-writes';
import { cacheFor, type ResourcePlan, type Scope } from './resource-plan';
import { ScopedText } from './scoped-text';
import { inlineLimit } from './select-shapes';

export type WrittenRow = unknown[];

/** The SQL texts of one set of written columns, each written on first use. */
interface WriteTexts {
  /** RETURNING databases, no scope: the write answers the row itself. */
  returningRow?: Text;
  /** An insert alone (RETURNING databases: answering the key), for a read-back in its transaction. */
  insert?: Text;
  /** An update by id with the scope's place, for a read-back in its transaction. */
  update?: ScopedText;
}

interface Text {
  readonly text: string;
  readonly fill: ParameterFiller;
}

function textOf(query: PreparableQuery): Text {
  const { sql: text, params } = query.toSQL();
  return { text, fill: parameterFiller(params) };
}

/** Shapes kept per resource: SQL text, not prepared statements (spec §8's cache holds those). */
const TEXTS_PER_RESOURCE = 128;

/** The column values of a write with the application's functions applied, as Drizzle applies them; `hasSql`: one answered SQL. */
interface Filled {
  readonly values: Record<string, unknown>;
  readonly hasSql: boolean;
}

/**
 * A create's values: each column the data leaves out that has a `$defaultFn` gets its value, else one with an
 * `$onUpdateFn` and no SQL default gets that (Drizzle's insert). An update's: every column with an `$onUpdateFn`
 * the data leaves out (Drizzle's update). Undefined values count as left out, as in Drizzle.
 */
function withApplicationValues(plan: ResourcePlan, operation: 'insert' | 'update', data: Record<string, unknown>, functions: readonly [string, Column][]): Filled {
  const values: Record<string, unknown> = {};
  for (const key in data) if (Object.hasOwn(data, key) && data[key] !== undefined) values[key] = data[key];
  let hasSql = false;
  for (const [key, column] of functions) {
    let value: unknown;
    // Drizzle's update calls every `$onUpdateFn` and keeps the answer where the data has no value.
    if (operation === 'update') value = column.onUpdateFn!();
    if (values[key] !== undefined) continue;
    if (operation === 'insert' && column.defaultFn !== undefined) value = column.defaultFn();
    else if (operation === 'insert' && column.onUpdateFn !== undefined && !column.default) value = column.onUpdateFn();
    else if (operation === 'insert') continue;
    values[key] = value;
    if (is(value, SQL)) hasSql = true;
  }
  return { values, hasSql };
}

/**
 * Drizzle's update builder calls every `$onUpdateFn` as it writes the SQL; writing a text must not call the
 * application's functions (they ran for this call already), so they are set aside while it is written.
 */
function withoutUpdateFunctions<T>(functions: readonly [string, Column][], write: () => T): T {
  const kept = functions.map(([, column]) => column.onUpdateFn);
  for (const [, column] of functions) (column as { onUpdateFn?: unknown }).onUpdateFn = undefined;
  try {
    return write();
  } finally {
    functions.forEach(([, column], index) => ((column as { onUpdateFn?: unknown }).onUpdateFn = kept[index]));
  }
}

/** The columns with an application function, in declaration order. */
function functionColumns(plan: ResourcePlan): readonly [string, Column][] {
  return Object.entries(plan.columns).filter(([, column]) => column.defaultFn !== undefined || column.onUpdateFn !== undefined);
}

/** Placeholders for the written values, except an SQL value (an application function's answer), written in. */
function placeholdersOf(plan: ResourcePlan, values: Record<string, unknown>): Record<string, unknown> {
  const placeholders: Record<string, unknown> = valuePlaceholders(plan.table, values);
  for (const key in values) if (is(values[key], SQL)) placeholders[key] = values[key];
  return placeholders;
}

class ShapeTexts {
  readonly #texts = new Map<string, WriteTexts>();

  /** The texts of this set of columns; an SQL value makes texts of this call's own. */
  of(shape: string, hasSql: boolean): WriteTexts {
    if (hasSql) return {};
    let texts = this.#texts.get(shape);
    if (texts === undefined) {
      if (this.#texts.size >= TEXTS_PER_RESOURCE) this.#texts.delete(this.#texts.keys().next().value as string);
      this.#texts.set(shape, (texts = {}));
    }
    return texts;
  }
}

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

function firstRow(answer: OnceAnswer | Promise<OnceAnswer>): WrittenRow | undefined | Promise<WrittenRow | undefined> {
  return answer instanceof Promise ? answer.then((done) => done.rows[0]) : answer.rows[0];
}

/**
 * create: the row written with `data` (the hooks' answer), read back inside the scope; null when it fell outside
 * (rolled back).
 */
export function compiledInsert(plan: ResourcePlan): (data: Record<string, unknown>, scope: Scope) => Promise<WrittenRow | null> {
  const cached = fixedInsert(plan);
  const functions = functionColumns(plan);
  const texts = new ShapeTexts();
  const readBack = readBackText(plan);
  const { pkColumn, pkKey } = plan;
  const db = primaryOf(plan.db);
  const insert = () => plan.db.insert(plan.table);
  return async (data, scope) => {
    if (cached !== null && cacheFor(plan, scope) !== null) return (await cached(data))[0];
    const { values, hasSql } = withApplicationValues(plan, 'insert', data, functions);
    const shape = texts.of(writeShape('insert', values), hasSql);
    const placeholders = placeholdersOf(plan, values);
    if (scope === undefined && (await plan.dialect.insertReturns(db))) {
      const statement = (shape.returningRow ??= textOf(plan.dialect.returningInsert(insert().values(placeholders), plan.defaultSelection)));
      return (await firstRow(plan.dialect.runOnce(db, { text: statement.text, values: statement.fill(values) })))!;
    }
    const write = (shape.insert ??= textOf(plan.dialect.hasReturning ? insert().values(placeholders).returning({ id: pkColumn }) : insert().values(placeholders)));
    const row = await plan.dialect.writeThenRead(db, { text: write.text, values: write.fill(values) }, (answer) => {
      // The key: the one the database answers (RETURNING), else the one written, else the auto-increment's.
      const key = plan.dialect.hasReturning ? pkColumn.mapFromDriverValue(answer.rows[0][0]) : (values[pkKey] ?? answer.insertId);
      return readBack.statement({ id: key }, scope);
    });
    return row === ROW_MISSING ? null : row;
  };
}

/**
 * update: the row with this id written with `data`, read back inside the scope; ROW_MISSING when there is none
 * inside the scope, null when the write took it outside (rolled back).
 */
export function compiledUpdate(plan: ResourcePlan): (data: Record<string, unknown>, id: unknown, scope: Scope) => Promise<WrittenRow | null | typeof ROW_MISSING> {
  const cached = fixedUpdate(plan);
  const functions = functionColumns(plan).filter(([, column]) => column.onUpdateFn !== undefined);
  const texts = new ShapeTexts();
  const readBack = readBackText(plan);
  const db = primaryOf(plan.db);
  return async (data, id, scope) => {
    const key = plan.pkCodec === null ? id : plan.pkCodec.decode(id);
    if (cached !== null && plan.pkCodec === null && cacheFor(plan, scope) !== null) return (await cached(data, id))[0] ?? ROW_MISSING;
    const { values, hasSql } = withApplicationValues(plan, 'update', data, functions);
    const shape = texts.of(writeShape('update', values), hasSql);
    const placeholders = placeholdersOf(plan, values) as Record<string, SQL>;
    const named = updateValues(values, key);
    if (scope === undefined && plan.dialect.hasReturning) {
      const statement = (shape.returningRow ??= withoutUpdateFunctions(functions, () =>
        textOf(plan.db.update(plan.table).set(placeholders).where(byIdPlaceholder(plan.pkColumn)).returning(plan.defaultSelection)),
      ));
      return (await firstRow(plan.dialect.runOnce(db, { text: statement.text, values: statement.fill(named) }))) ?? ROW_MISSING;
    }
    const update = (shape.update ??= withoutUpdateFunctions(functions, () =>
      ScopedText.of(plan.db, (place) => plan.db.update(plan.table).set(placeholders).where(and(byIdPlaceholder(plan.pkColumn), place))),
    ));
    return plan.dialect.writeThenRead(db, update.statement(named, scope), (answer) => (answer.changes === 0 ? null : readBack.statement({ id: key }, scope)));
  };
}
