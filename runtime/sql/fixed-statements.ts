// The fixed query shapes of a resource (issue 11): the SQL of every action whose plan has one (action-plans.ts),
// known at build time, with the database's own placeholders. The bundle records it in its statement files and
// resource modules; the compiled handlers run it through the driver (fixed-execution.ts).
import { count, eq } from 'drizzle-orm';
import { columnPlaceholder } from '../dialects/column-placeholder';
import type { PreparableQuery } from '../dialects/dialect';
import { parameterSlot } from '../dialects/prepared-select';
import type { FixedShapeName } from './action-plans';
import type { ResourcePlan } from './resource-plan';
import { getQuery, inlineLimit, pageQuery } from './select-shapes';

/** Each shape's query, in the order the statement files list them: get by id and the default page over the readable fields first. */
const SHAPE_QUERIES: readonly { readonly name: FixedShapeName; readonly query: (plan: ResourcePlan) => PreparableQuery }[] = [
  { name: 'getById', query: (plan) => getQuery(plan, plan.readable) },
  { name: 'listPage', query: (plan) => pageQuery(plan, plan.readable, undefined, undefined, plan.defaultLimit) },
  { name: 'countAll', query: (plan) => plan.db.select({ count: count() }).from(plan.table) },
  { name: 'anyRow', query: (plan) => plan.db.select({ id: plan.pkColumn }).from(plan.table).limit(inlineLimit(1)) },
  { name: 'deleteById', query: (plan) => plan.db.delete(plan.table).where(eq(plan.pkColumn, columnPlaceholder('id', plan.pkColumn))) },
];

/** One fixed shape as the bundle records it, and its generated handlers run it. */
export interface FixedStatementShape {
  readonly name: FixedShapeName;
  /** SQL with the database's own placeholders (`?`, `$1`); a page's LIMIT is the resource's defaultLimit where the dialect writes it in. */
  readonly sql: string;
  /** What binds to each placeholder, in order: `:name` for a value given per call, else the fixed value. */
  readonly params: readonly unknown[];
  /**
   * For a page on a dialect that writes its LIMIT into the SQL (SQLite): the text before and after the limit, so a
   * handler writes the statement of another page size. Null otherwise.
   */
  readonly aroundLimit: readonly [string, string] | null;
}

/** `:name` for a placeholder (bare, or behind its column's encoder), else the fixed value. */
function describeParam(param: unknown): unknown {
  const slot = parameterSlot(param);
  return 'value' in slot ? slot.value : `:${slot.name}`;
}

/** A page size no real page has, to find where the dialect writes the LIMIT. */
const LIMIT_MARK = 987654321;
/** Any offset past the first row: the page's text then carries its OFFSET. */
const LATER_ROW = 1;

/**
 * The text of a page with its OFFSET around the LIMIT. A first page has no OFFSET (select-shapes.ts leavesOffsetOut):
 * its text is the part before the LIMIT and the LIMIT, which is checked here once (fixed-execution.ts pageText).
 */
function aroundLimit(plan: ResourcePlan): readonly [string, string] | null {
  if (!plan.dialect.inlinesLimit) return null;
  const text = pageQuery(plan, plan.readable, undefined, undefined, LIMIT_MARK, null, null, LATER_ROW).toSQL().sql;
  const [before, after, ...more] = text.split(String(LIMIT_MARK));
  const firstPage = pageQuery(plan, plan.readable, undefined, undefined, LIMIT_MARK).toSQL().sql;
  return more.length === 0 && after !== undefined && firstPage === `${before}${LIMIT_MARK}` ? [before, after] : null;
}

/** Each resource's shapes, built once: the compiler asks for them once per route and again for the resource's files. */
const shapesOf = new WeakMap<ResourcePlan, readonly FixedStatementShape[]>();

/** The SQL text of each fixed shape, placeholders in the database's own syntax, for the compiler and the statement files. */
export function fixedStatementShapes(plan: ResourcePlan): readonly FixedStatementShape[] {
  let shapes = shapesOf.get(plan);
  if (shapes === undefined) {
    shapes = Object.freeze(SHAPE_QUERIES.map(({ name, query }) => describeShape(plan, name, query(plan))));
    shapesOf.set(plan, shapes);
  }
  return shapes;
}

function describeShape(plan: ResourcePlan, name: FixedShapeName, query: PreparableQuery): FixedStatementShape {
  const { sql: text, params } = query.toSQL();
  return { name, sql: text, params: params.map(describeParam), aroundLimit: name === 'listPage' ? aroundLimit(plan) : null };
}
