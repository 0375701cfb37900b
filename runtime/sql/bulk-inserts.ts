// createMany's write (CONTRACT §10), all or nothing: the rows in one multi-row INSERT per chunk, its SQL text written
// once per shape (bulk-insert-texts.ts). Without a scope, where the database has INSERT … RETURNING, the INSERT answers
// the rows as this request wrote them (issue 17): one chunk is one statement, atomic on its own, run from the statement
// cache where spec §8 allows it (no scope, no application defaults) and prepared for the call otherwise. With a scope
// every row is read back in it, in the INSERT's transaction, and one outside rolls all back (OutsideScope).
import type { DbRow, OnceAnswer } from '../dialects/dialect';
import { keysInInputOrder } from '../dialects/insert-order';
import { primaryOf } from '../dialects/read-replicas';
import type { TxWork } from '../dialects/transaction-work';
import { bulkInsertText, sharedColumns, type BulkInsertText, type InsertAnswer } from './bulk-insert-texts';
import { readBack, rowsByKey, type BulkPlan } from './bulk-writes';
import { cacheFor, type ResourcePlan } from './resource-plan';
import { statementName } from './select-shapes';
import { functionColumns, withApplicationValues } from './write-texts';

type Row = Record<string, unknown>;

/** Bound values per multi-row INSERT, under every driver's limit (SQLite 32,766; PostgreSQL and MySQL 65,535). */
const VALUES_PER_INSERT = 30_000;

/**
 * Whether one INSERT can write `rows` and still tell their keys apart (insert-order.ts): every row carries its key,
 * or none does and the database numbers an integer key.
 */
function insertsAtOnce(plan: BulkPlan, rows: readonly Row[]): boolean {
  let carried = 0;
  for (const values of rows) if (values[plan.pkKey] !== undefined && values[plan.pkKey] !== null) carried++;
  return carried === rows.length || (carried === 0 && (plan.pk.dataType === 'number' || plan.pk.dataType === 'bigint'));
}

/** The rows with their application functions' values (`$defaultFn`, `$onUpdateFn`) filled per row, as Drizzle's insert would: each key known before the INSERT. */
function withFunctionValues(rt: ResourcePlan, rows: readonly Row[]): readonly Row[] {
  const functions = functionColumns(rt);
  return functions.length === 0 ? rows : rows.map((values) => withApplicationValues(rt, 'insert', values, functions).values);
}

/**
 * Whether the answered rows are already in input order (as the three databases answer them): each row under the key
 * its input row carries, or (no input row carries one) under numbers that only ascend. One pass; no map, no sort.
 */
function isInputOrder(plan: BulkPlan, rows: readonly Row[], answered: readonly DbRow[]): boolean {
  if (answered.length !== rows.length) return false;
  const { pkKey } = plan;
  const sent = rows[0][pkKey];
  if (sent === undefined || sent === null) {
    for (let index = 1; index < answered.length; index++) {
      const previous = answered[index - 1][pkKey];
      const key = answered[index][pkKey];
      if (typeof previous !== 'number' || typeof key !== 'number' || !(previous < key)) return false;
    }
    return answered.length === 0 || typeof answered[0][pkKey] === 'number';
  }
  for (let index = 0; index < rows.length; index++) if (answered[index][pkKey] !== rows[index][pkKey]) return false;
  return true;
}

/** The rows an INSERT answered (RETURNING), in input order: by key where rows carry theirs, by the numbers' order otherwise. */
function answeredInInputOrder(plan: BulkPlan, rows: readonly Row[], answered: readonly DbRow[]): DbRow[] {
  if (isInputOrder(plan, rows, answered)) return answered as DbRow[];
  const keys = keysInInputOrder(rows, plan.pkKey, answered.map((row) => row[plan.pkKey]));
  // A key the database keeps in another form than sent (a UUID's case) matches no answered row by its text: the three
  // databases answer an INSERT's rows in VALUES order, which is then the order.
  return rowsByKey(plan, keys, answered) ?? [...answered];
}

/** The keys an auto-increment gave MySQL's INSERT: consecutive from insertId (as Drizzle's $returningId reads them). */
function numberedKeys(plan: BulkPlan, answer: OnceAnswer, count: number): unknown[] {
  const first = answer.insertId;
  const numbers = (plan.pk as { autoIncrement?: boolean }).autoIncrement === true && first !== undefined && first !== null && first !== 0;
  return Array.from({ length: count }, (_, index) => {
    if (!numbers) return undefined;
    return plan.pk.mapFromDriverValue(typeof first === 'number' ? first + index : String(BigInt(first as string) + BigInt(index)));
  });
}

/** The chunks of `rows` one INSERT each. */
function chunksOf(rt: ResourcePlan, rows: readonly Row[]): Row[][] {
  const perInsert = Math.max(1, Math.floor(VALUES_PER_INSERT / Object.keys(rt.columns).length));
  const chunks: Row[][] = [];
  for (let start = 0; start < rows.length; start += perInsert) chunks.push(rows.slice(start, start + perInsert));
  return chunks;
}

/** createMany's transaction: each chunk's INSERT as text (`columns`: what every row sets) or, for rows that differ, by Drizzle. */
function* insertRows(rt: ResourcePlan, plan: BulkPlan, rows: readonly Row[], columns: readonly string[] | null, answer: InsertAnswer): TxWork<DbRow[]> {
  const keys: unknown[] = [];
  if (!insertsAtOnce(plan, rows)) {
    // Rows that neither all carry their key nor all leave it to the database: one INSERT each.
    for (const values of rows) keys.push(yield { kind: 'insert', table: plan.table, pk: plan.pk, pkKey: plan.pkKey, values });
    return yield* readBack(plan, keys);
  }
  const written: DbRow[] = [];
  for (const chunk of chunksOf(rt, rows)) {
    if (columns === null) {
      keys.push(...((yield { kind: 'insertMany', table: plan.table, pk: plan.pk, pkKey: plan.pkKey, rows: chunk }) as unknown[]));
      continue;
    }
    const text = bulkInsertText(rt, columns, chunk.length, answer);
    const done: OnceAnswer = yield { kind: 'text', statement: { text: text.text, values: text.bind(chunk) } };
    if (answer === 'rows') written.push(...answeredInInputOrder(plan, chunk, done.rows.map(text.read!)));
    else if (answer === 'keys') keys.push(...keysInInputOrder(chunk, plan.pkKey, done.rows.map((row) => text.read!(row)[plan.pkKey])));
    else keys.push(...keysInInputOrder(chunk, plan.pkKey, numberedKeys(plan, done, chunk.length)));
  }
  return columns !== null && answer === 'rows' ? written : yield* readBack(plan, keys);
}

/** The one INSERT of a call without a scope: the cached statement where spec §8 lets it be, else prepared for this call. */
async function answeredRows(rt: ResourcePlan, text: BulkInsertText, rows: readonly Row[]): Promise<DbRow[]> {
  const db = primaryOf(rt.db);
  const values = text.bind(rows);
  const cache = cacheFor(rt, undefined);
  const answered =
    cache === null
      ? (await rt.dialect.runOnce(db, { text: text.text, values })).rows
      : await cache.statement(`${rt.statementPrefix}bulk|${text.shape}`, () => rt.dialect.rawStatement(db, text.text, statementName(text.text))).rows(values);
  return answered.map(text.read!);
}

/** createMany's rows written, all or none, and answered as written (in scope when there is one), in input order. */
export async function insertMany(rt: ResourcePlan, plan: BulkPlan, given: readonly Row[]): Promise<DbRow[]> {
  const rows = withFunctionValues(rt, given);
  const columns = insertsAtOnce(plan, rows) ? sharedColumns(rt, rows) : null;
  const answer: InsertAnswer = !(await rt.dialect.insertReturns(primaryOf(rt.db))) ? 'none' : plan.scope === undefined ? 'rows' : 'keys';
  if (columns !== null && answer === 'rows' && rows.length * Object.keys(rt.columns).length <= VALUES_PER_INSERT) {
    return answeredInInputOrder(plan, rows, await answeredRows(rt, bulkInsertText(rt, columns, rows.length, 'rows'), rows));
  }
  return rt.dialect.transact(rt.db, () => insertRows(rt, plan, rows, columns, answer));
}
