// A page the statement cache may not serve (spec §8 rule 2: a scope condition; rule 3: a table with application
// defaults; or the cache turned off), run without Drizzle's query builder (issue 27). Its SQL is the cached shape's
// (statement-key.ts: the filter's structure, the fields, the order, the keyset and, where the dialect writes it in,
// the limit), written once per shape with a place for the call's scope condition (scoped-text.ts); each call binds
// its values and prepares the statement for itself only (Dialect.runOnce), as the rules ask. Its rows are mapped as
// Drizzle maps a flat selection (prepared-select.ts), so every handler mode answers the same.
import { and, sql, type SQL } from 'drizzle-orm';
import type { DbRow } from '../dialects/dialect';
import type { Where } from '../model/options';
import { flatRowReader, type RowReader } from '../dialects/prepared-select';
import { readDatabase } from '../dialects/read-replicas';
import { bindKeyset, keysetPlaceholders, type Keyset } from './keyset';
import type { NestedSelection } from './nested-selection';
import { compileOrderBy, type OrderByEntry } from './order-by';
import type { ResourcePlan, Scope } from './resource-plan';
import { ScopedText, type BuiltQuery } from './scoped-text';
import { inlineLimit, pageKey, selectionOf, type SelectedColumn } from './select-shapes';
import { wherePlaceholderName, wherePlaceholders, type WhereShape } from './statement-key';
import { afterValue } from '../model/maybe-pending';

/** A page of rows: what list and findOne ask for. */
export interface PageRequest {
  /** The selected fields, and any join column the includes need (CONTRACT §9). */
  readonly fields: readonly SelectedColumn[];
  readonly where: Where | undefined;
  readonly orderBy: readonly OrderByEntry[] | undefined;
  readonly limit: number;
  readonly offset: number;
  /** A cursor page (CONTRACT §10): the rows after the cursor's, in place of an offset; null for any other page. */
  readonly after: Keyset | null;
  /** The includes, where they come inside this statement (CONTRACT §9); null otherwise. */
  readonly nested: NestedSelection | null;
}

export type Rows = DbRow[] | Promise<DbRow[]>;

interface PageText {
  readonly text: ScopedText;
  readonly read: RowReader;
}

/** Shapes per resource whose text is kept; past this, a page takes Drizzle's builder (as every uncached page did before). */
const MAX_PAGE_TEXTS = 128;

const textsOf = new WeakMap<ResourcePlan, Map<string, PageText | null>>();

/** The shape's SQL with placeholders and a place for the scope, and its row reader; null for a selection Drizzle maps otherwise. */
function pageText(rt: ResourcePlan, page: PageRequest): PageText | null {
  const selection = selectionOf(rt, page.fields);
  const read = flatRowReader(
    Object.entries(selection).map(([key, column]) => ({ path: [key], field: column })),
    rt.dialect.rowDecoder,
  );
  if (read === null) return null;
  const filter = wherePlaceholders(page.where, rt.filterColumns, rt.dialect);
  const keyset = page.after === null ? undefined : keysetPlaceholders(page.after, rt.dialect);
  const build = (scope: SQL | undefined): BuiltQuery =>
    rt.db
      .select(selection)
      .from(rt.table)
      .where(and(filter, keyset, scope))
      .orderBy(...compileOrderBy(page.orderBy, rt.columns, rt.pkKey))
      .limit(rt.dialect.inlinesLimit ? inlineLimit(page.limit) : sql.placeholder('limit'))
      .offset(sql.placeholder('offset'));
  return { text: ScopedText.of(rt.db, build), read };
}

/**
 * The page's rows, its statement written once per shape and prepared for this call; null when this resource has seen
 * too many shapes (or the selection is not one Drizzle maps flat): the caller then builds the query with Drizzle.
 * Only for a page without nested includes (`page.nested` null).
 */
export function uncachedPage(rt: ResourcePlan, page: PageRequest, shape: WhereShape, scope: Scope): Rows | null {
  let texts = textsOf.get(rt);
  if (texts === undefined) textsOf.set(rt, (texts = new Map()));
  const key = pageKey(rt, page.fields, shape.key, page.orderBy, page.limit, page.after);
  let known = texts.get(key);
  if (known === undefined) {
    if (texts.size >= MAX_PAGE_TEXTS) return null;
    texts.set(key, (known = pageText(rt, page)));
  }
  if (known === null) return null;
  const named: Record<string, unknown> = { limit: page.limit, offset: page.offset };
  for (let index = 0; index < shape.values.length; index++) named[wherePlaceholderName(index)] = shape.values[index];
  const { text, read } = known;
  const answer = rt.dialect.runOnce(readDatabase(rt.db), text.statement(page.after === null ? named : bindKeyset(page.after, named), scope));
  const rows = (done: { rows: unknown[][] }): DbRow[] => done.rows.map(read);
  return afterValue(answer, rows);
}
