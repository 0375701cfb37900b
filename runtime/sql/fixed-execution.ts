// What the compiled handlers need to run a fixed shape (issue 11) without Drizzle: the statement of the SQL the
// compiler wrote, through the driver's own prepared statement (the dialect's rawStatement), held by the statement
// cache like any prepared statement (spec §8: counted, evicted, switched off with `statementCache: false`); and
// the decoders of the readable columns whose driver values Drizzle maps (dates, numerics…), for the row writer.
import { Column, entityKind } from 'drizzle-orm';
import type { RawStatement } from '../dialects/dialect';
import { columnDecoder } from '../dialects/prepared-select';
import { rawReadStatement } from '../dialects/read-replicas';
import { drizzlePrototype } from '../drizzle-kinds';
import type { ResourcePlan } from './resource-plan';
import { statementName } from './select-shapes';

/** The cache key of a fixed shape (of a page of `limit` rows, where the dialect writes the LIMIT into the SQL). */
export function fixedKey(plan: ResourcePlan, shape: string, limit?: number): string {
  return limit === undefined ? `${plan.statementPrefix}fixed|${shape}` : `${plan.statementPrefix}fixed|${shape}|${limit}`;
}

/** Prepares the driver's statement of a text the compiler wrote. */
export function rawStatementOf(plan: ResourcePlan, text: string): RawStatement {
  return plan.dialect.rawStatement(plan.db, text, statementName(text));
}

/** The same for a read: on a withReplicas database, run on the replica picked per call (read-replicas.ts). */
export function rawReadStatementOf(plan: ResourcePlan, text: string): RawStatement {
  return rawReadStatement(plan.dialect, plan.db, text, statementName(text));
}

/** The fixed shapes that write (deleteById): every other one reads. */
const WRITE_SHAPES: ReadonlySet<string> = new Set(['deleteById']);

function cachedStatement(plan: ResourcePlan, key: string, text: string, isRead: boolean): RawStatement | null {
  const cache = plan.statementCache;
  if (cache === null || !cache.isEnabled) return null;
  const prepare = (): RawStatement => (isRead ? rawReadStatementOf(plan, text) : rawStatementOf(plan, text));
  return {
    rows: (values) => cache.statement(key, prepare).rows(values),
    run: (values) => cache.statement(key, prepare).run(values),
  };
}

/** The statement of a fixed shape, or null when the statement cache is off (the handler then takes the runtime path). */
export function fixedStatement(plan: ResourcePlan, shape: string, text: string): RawStatement | null {
  return cachedStatement(plan, fixedKey(plan, shape), text, !WRITE_SHAPES.has(shape));
}

/** A resource module's `statements` (resource.js): each fixed shape's SQL, a page's as the text around its LIMIT where the dialect writes it in. */
export interface FixedStatementTexts {
  readonly getById: string;
  readonly listPage: string | readonly [string, string];
}

/**
 * The text of a page of `limit` rows, on a dialect that writes the page size into the SQL: from the first row, the
 * text up to its LIMIT (no OFFSET: select-shapes.ts leavesOffsetOut); from a later one, the whole text.
 */
export function pageText([before, after]: readonly [string, string], limit: number, offset = 0): string {
  return offset === 0 ? `${before}${limit}` : `${before}${limit}${after}`;
}

/**
 * For a dialect that writes the page size into the SQL: the page statement of each size, as its own shape, with an
 * OFFSET (bound: its one placeholder) only for a page from a later row.
 */
export function fixedPageStatements(plan: ResourcePlan, shape: string, aroundLimit: readonly [string, string]): ((limit: number, offset: number) => RawStatement) | null {
  const cache = plan.statementCache;
  if (cache === null || !cache.isEnabled) return null;
  const firstPages = new Map<number, RawStatement>();
  const laterPages = new Map<number, RawStatement>();
  return (limit, offset) => {
    const statements = offset === 0 ? firstPages : laterPages;
    let statement = statements.get(limit);
    if (statement === undefined) {
      // `limit` passed validation: an integer from 1 to maxLimit.
      const key = offset === 0 ? fixedKey(plan, shape, limit) : `${fixedKey(plan, shape, limit)}|offset`;
      statement = cachedStatement(plan, key, pageText(aroundLimit, limit, offset), true)!;
      statements.set(limit, statement);
    }
    return statement;
  };
}

/**
 * Whether Drizzle maps the column's driver values (otherwise the value is used as the driver gives it): whether its
 * decoder is other than the identity of Column, in the copy of Drizzle that made the column. The generator and the
 * server must agree on this, whichever copy each loaded the application's tables with.
 */
export function hasDecoder(column: Column): boolean {
  const base = drizzlePrototype(column, Column[entityKind]) ?? Column.prototype;
  return column.mapFromDriverValue !== base.mapFromDriverValue;
}

export type Decoders = Readonly<Record<string, (value: unknown) => unknown>>;

const decodersOf = new WeakMap<ResourcePlan, Decoders>();

/**
 * The readable columns' decoders, by field key, for those that have one (a driver null is never decoded): the
 * dialect's own where it has one (Dialect.rowDecoder), else the column's.
 */
export function readableDecoders(plan: ResourcePlan): Decoders {
  let decoders = decodersOf.get(plan);
  if (decoders === undefined) {
    const made: Record<string, (value: unknown) => unknown> = Object.create(null);
    for (const field of plan.readable) if (hasDecoder(field.column)) made[field.key] = columnDecoder(field.column, plan.dialect.rowDecoder);
    decodersOf.set(plan, (decoders = Object.freeze(made)));
  }
  return decoders;
}
