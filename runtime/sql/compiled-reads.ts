// The default calls of the read actions and of delete, as the compiled handlers run them (issues 11 and 27): get by
// id, a page in key order, count, exists, delete by id, each with the call's scope. A call spec §8 lets use the
// statement cache runs the fixed shape's statement (fixed-execution.ts); any other call (a scope condition, rule 2;
// a table with application defaults, rule 3; the cache turned off) runs the same SQL, written once, prepared for the
// call only (scoped-text.ts). Rows come as arrays for the generated row writers.
import { and, count, eq, sql, type SQL } from 'drizzle-orm';
import { columnPlaceholder } from '../dialects/column-placeholder';
import type { OnceAnswer, RawStatement } from '../dialects/dialect';
import { primaryOf, readDatabase } from '../dialects/read-replicas';
import { fixedPageStatements, fixedStatement } from './fixed-execution';
import { compileOrderBy } from './order-by';
import { cacheFor, type ResourcePlan, type Scope } from './resource-plan';
import { ScopedText, type BuiltQuery } from './scoped-text';
import { inlineLimit } from './select-shapes';
import { afterValue } from '../model/maybe-pending';

export type Rows = unknown[][] | Promise<unknown[][]>;

/** The values of a statement with no placeholder (a first page where the dialect writes the LIMIT in). */
const NO_VALUES: readonly unknown[] = [];

/** Runs a statement once on the database a read (or a write) goes to; SQLite answers synchronously. */
function once(plan: ResourcePlan, text: ScopedText, named: Record<string, unknown>, scope: Scope, isRead: boolean): OnceAnswer | Promise<OnceAnswer> {
  return plan.dialect.runOnce(isRead ? readDatabase(plan.db) : primaryOf(plan.db), text.statement(named, scope));
}

function rowsOnce(plan: ResourcePlan, text: ScopedText, named: Record<string, unknown>, scope: Scope): Rows {
  const answer = once(plan, text, named, scope, true);
  return afterValue(answer, (done) => done.rows);
}

/** The key as the database binds it (a key with a JSON codec, a bigint say, decoded first). */
function keyOf(plan: ResourcePlan, id: unknown): unknown {
  return plan.pkCodec === null ? id : plan.pkCodec.decode(id);
}

/** The cached statement may serve this call (spec §8 rules 2 and 3, and the cache on). */
function mayCache(plan: ResourcePlan, statement: unknown, scope: Scope): boolean {
  return statement !== null && cacheFor(plan, scope) !== null;
}

/** `pk = :id`, ANDed with the scope's place. */
function byId(plan: ResourcePlan, scope: SQL | undefined): SQL | undefined {
  return and(eq(plan.pkColumn, columnPlaceholder('id', plan.pkColumn)), scope);
}

/**
 * get: the row with this id inside the scope, as a list of at most one. `text` is the fixed shape's SQL where the
 * resource's statements may be cached, else null.
 */
export function compiledGet(plan: ResourcePlan, text: string | null): (id: unknown, scope: Scope) => Rows {
  const cached = text === null ? null : fixedStatement(plan, 'getById', text);
  const build = (scope: SQL | undefined): BuiltQuery => plan.db.select(plan.defaultSelection).from(plan.table).where(byId(plan, scope)).limit(inlineLimit(1));
  const uncached = ScopedText.of(plan.db, build);
  return (id, scope) => (mayCache(plan, cached, scope) ? cached!.rows([id]) : rowsOnce(plan, uncached, { id: keyOf(plan, id) }, scope));
}

/**
 * list (and findOne, a page of one): a page of rows inside the scope in key order, no filter. `text` is the fixed
 * shape's SQL (the text around its LIMIT where the dialect writes the limit in) where it may be cached, else null.
 */
export function compiledPage(plan: ResourcePlan, text: string | readonly [string, string] | null): (limit: number, offset: number, scope: Scope) => Rows {
  let cached: ((limit: number, offset: number) => RawStatement | null) | null = null;
  if (typeof text === 'string') {
    const statement = fixedStatement(plan, 'listPage', text);
    cached = () => statement;
  } else if (text !== null) {
    cached = fixedPageStatements(plan, 'listPage', text);
  }
  const build = (scope: SQL | undefined): BuiltQuery =>
    plan.db
      .select(plan.defaultSelection)
      .from(plan.table)
      .where(scope)
      .orderBy(...compileOrderBy(undefined, plan.columns, plan.pkKey))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'));
  const uncached = ScopedText.of(plan.db, build);
  const inlinesLimit = typeof text !== 'string';
  return (limit, offset, scope) => {
    const statement = cached === null || cacheFor(plan, scope) === null ? null : cached(limit, offset);
    if (statement === null) return rowsOnce(plan, uncached, { limit, offset }, scope);
    if (!inlinesLimit) return statement.rows([limit, offset]);
    return statement.rows(offset === 0 ? NO_VALUES : [offset]);
  };
}

/** count: the rows inside the scope. */
export function compiledCount(plan: ResourcePlan, text: string | null): (scope: Scope) => number | Promise<number> {
  const cached = text === null ? null : fixedStatement(plan, 'countAll', text);
  const uncached = ScopedText.of(plan.db, (scope) => plan.db.select({ count: count() }).from(plan.table).where(scope));
  const number = (rows: unknown[][]): number => Number(rows[0][0]);
  return (scope) => {
    const rows = mayCache(plan, cached, scope) ? cached!.rows([]) : rowsOnce(plan, uncached, {}, scope);
    return afterValue(rows, number);
  };
}

/** exists: whether any row is inside the scope. */
export function compiledExists(plan: ResourcePlan, text: string | null): (scope: Scope) => boolean | Promise<boolean> {
  const cached = text === null ? null : fixedStatement(plan, 'anyRow', text);
  const uncached = ScopedText.of(plan.db, (scope) => plan.db.select({ id: plan.pkColumn }).from(plan.table).where(scope).limit(inlineLimit(1)));
  const any = (rows: unknown[][]): boolean => rows.length > 0;
  return (scope) => {
    const rows = mayCache(plan, cached, scope) ? cached!.rows([]) : rowsOnce(plan, uncached, {}, scope);
    return afterValue(rows, any);
  };
}

/** delete: whether the row with this id inside the scope was deleted. */
export function compiledDelete(plan: ResourcePlan, text: string | null): (id: unknown, scope: Scope) => boolean | Promise<boolean> {
  const cached = text === null ? null : fixedStatement(plan, 'deleteById', text);
  const uncached = ScopedText.of(plan.db, (scope) => plan.db.delete(plan.table).where(byId(plan, scope)));
  return (id, scope) => {
    if (mayCache(plan, cached, scope)) {
      const deleted = cached!.run([id]);
      return afterValue(deleted, (changes) => changes > 0);
    }
    const answer = once(plan, uncached, { id: keyOf(plan, id) }, scope, false);
    return afterValue(answer, (done) => done.changes > 0);
  };
}
