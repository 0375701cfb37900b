// What the compiled handlers need to run a fixed shape (issue 11) without Drizzle: the statement of the SQL the
// compiler wrote, through the driver's own prepared statement (the dialect's rawStatement), held by the statement
// cache like any prepared statement (spec §8: counted, evicted, switched off with `statementCache: false`); and
// the decoders of the readable columns whose driver values Drizzle maps (dates, numerics…), for the row writer.
import { Column, entityKind } from 'drizzle-orm';
import type { CrudRuntime } from '../model/crud-runtime';
import { statementName } from './read-queries';
import type { RawStatement } from '../dialects/dialect';
import { drizzlePrototype } from '../drizzle-kinds';
import { columnDecoder } from '../dialects/prepared-select';

function cachedStatement(rt: CrudRuntime, key: string, text: string, isPreloaded: boolean): RawStatement | null {
  const cache = rt.statementCache;
  if (cache === null || !cache.isEnabled) return null;
  const prepare = (): RawStatement => rt.dialect.rawStatement(rt.db, text, statementName(text));
  // spec §8 rule 4: the default get and list statements are prepared while the server is built.
  if (isPreloaded) cache.preload(key, prepare);
  return {
    rows: (values) => cache.statement(key, prepare).rows(values),
    run: (values) => cache.statement(key, prepare).run(values),
  };
}

/** The shapes of spec §8 rule 4: prepared while the server is built. */
const PREPARED_AT_CONSTRUCTION = new Set(['getById', 'listPage']);

function fixedKey(rt: CrudRuntime, shape: string, limit?: number): string {
  return limit === undefined ? `${rt.statementPrefix}fixed|${shape}` : `${rt.statementPrefix}fixed|${shape}|${limit}`;
}

/** The statement of a fixed shape, or null when the statement cache is off (the handler then takes the runtime path). */
export function fixedStatement(rt: CrudRuntime, shape: string, text: string): RawStatement | null {
  return cachedStatement(rt, fixedKey(rt, shape), text, PREPARED_AT_CONSTRUCTION.has(shape));
}

/** A resource module's `statements` (resource.js): each fixed shape's SQL, a page's as the text around its LIMIT where the dialect writes it in. */
export interface FixedStatementTexts {
  readonly getById: string;
  readonly listPage: string | readonly [string, string];
}

/**
 * spec §8 rule 4 for a compiled get or list route whose handler is created on its first request (a compilation.js
 * route): its default statement is prepared now, as creating the handler would, which then finds it in the cache.
 */
export function prepareFixedDefault(rt: CrudRuntime, action: 'get' | 'list', statements: FixedStatementTexts): void {
  if (action === 'get') fixedStatement(rt, 'getById', statements.getById);
  else if (typeof statements.listPage === 'string') fixedStatement(rt, 'listPage', statements.listPage);
  else fixedPageStatements(rt, 'listPage', statements.listPage);
}

/**
 * Whether a compiled handler prepared the default statement of this action as a fixed shape (spec §8 rule 4
 * then holds through it, and the server need not prepare Drizzle's as well).
 */
export function holdsFixedDefault(rt: CrudRuntime, action: 'get' | 'list'): boolean {
  const cache = rt.statementCache;
  if (cache === null) return false;
  if (action === 'get') return cache.has(fixedKey(rt, 'getById'));
  return cache.has(fixedKey(rt, 'listPage')) || cache.has(fixedKey(rt, 'listPage', rt.defaultLimit));
}

/** For a dialect that writes the page size into the SQL: the page statement of each size, as its own shape. */
export function fixedPageStatements(rt: CrudRuntime, shape: string, [before, after]: readonly [string, string]): ((limit: number) => RawStatement) | null {
  const cache = rt.statementCache;
  if (cache === null || !cache.isEnabled) return null;
  const statements = new Map<number, RawStatement>();
  const statementOf = (limit: number): RawStatement => {
    let statement = statements.get(limit);
    if (statement === undefined) {
      // `limit` passed validation: an integer from 1 to maxLimit.
      statement = cachedStatement(rt, fixedKey(rt, shape, limit), `${before}${limit}${after}`, limit === rt.defaultLimit)!;
      statements.set(limit, statement);
    }
    return statement;
  };
  // spec §8 rule 4: the default page is prepared while the server is built.
  statementOf(rt.defaultLimit);
  return statementOf;
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

const decodersOf = new WeakMap<CrudRuntime, Decoders>();

/**
 * The readable columns' decoders, by field key, for those that have one (a driver null is never decoded): the
 * dialect's own where it has one (Dialect.rowDecoder), else the column's.
 */
export function readableDecoders(rt: CrudRuntime): Decoders {
  let decoders = decodersOf.get(rt);
  if (decoders === undefined) {
    const made: Record<string, (value: unknown) => unknown> = Object.create(null);
    for (const field of rt.readable) if (hasDecoder(field.column)) made[field.key] = columnDecoder(field.column, rt.dialect.rowDecoder);
    decodersOf.set(rt, (decoders = Object.freeze(made)));
  }
  return decoders;
}
