// create and update on a resource whose shapes are fixed (issue 11), on the databases that answer the written
// row from the write itself (RETURNING: SQLite, PostgreSQL): each set of written columns is one statement, its SQL
// Drizzle's once, then the driver's own prepared statement held by the statement cache; values bind through the
// columns' encoders; the row comes back as an array for the generated row writer. No Drizzle per request.
import type { SQL } from 'drizzle-orm';
import type { PreparableQuery, RawStatement } from '../dialects/dialect';
import { byIdPlaceholder, updateValues, valuePlaceholders, writeShape } from '../dialects/write-statements';
import type { ResourcePlan } from './resource-plan';
import { statementName } from './select-shapes';
import { parameterFiller } from '../dialects/prepared-select';

interface BoundStatement {
  readonly statement: RawStatement;
  /** The statement's values, in placeholder order, from the named values of a call. */
  bind(values: Record<string, unknown>): unknown[];
  /** The statement cache dropped it. */
  release(): void;
}

function boundStatement(rt: ResourcePlan, query: PreparableQuery): BoundStatement {
  const { sql: text, params } = query.toSQL();
  const statement = rt.dialect.rawStatement(rt.db, text, statementName(text));
  return { statement, bind: parameterFiller(params), release: () => statement.release?.() };
}

type Rows = unknown[][] | Promise<unknown[][]>;

/**
 * The rows a write answers: `data` decides the shape (the written columns) and builds its statement once, `values`
 * binds it (data, plus the id for an update). Null when the statement cache is off or the database has no RETURNING.
 */
function fixedWrite(rt: ResourcePlan, operation: 'insert' | 'update', build: (data: Record<string, unknown>) => PreparableQuery) {
  const cache = rt.statementCache;
  if (cache === null || !cache.isEnabled || !rt.dialect.hasReturning) return null;
  return (data: Record<string, unknown>, values: Record<string, unknown>): Rows => {
    const bound = cache.statement(`${rt.statementPrefix}fixed|${writeShape(operation, data)}`, () => boundStatement(rt, build(data)));
    return bound.statement.rows(bound.bind(values));
  };
}

/** `insert … returning` the readable fields, one statement per set of written columns; null when not available. */
export function fixedInsert(rt: ResourcePlan): ((data: Record<string, unknown>) => Rows) | null {
  const write = fixedWrite(rt, 'insert', (data) => rt.db.insert(rt.table).values(valuePlaceholders(rt.table, data)).returning(rt.defaultSelection));
  return write === null ? null : (data) => write(data, data);
}

/** `update … where pk = :id returning` the readable fields; no row when there is none with that id. */
export function fixedUpdate(rt: ResourcePlan): ((data: Record<string, unknown>, id: unknown) => Rows) | null {
  const write = fixedWrite(rt, 'update', (data) =>
    rt.db.update(rt.table).set(valuePlaceholders(rt.table, data) as Record<string, SQL>).where(byIdPlaceholder(rt.pkColumn)).returning(rt.defaultSelection),
  );
  return write === null ? null : (data, id) => write(data, updateValues(data, id));
}
