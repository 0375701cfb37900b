// How each database is asked whether a related row exists (relation filters, CONTRACT §9). SQLite and PostgreSQL
// probe the join column's index for `EXISTS (…)`. MariaDB turns EXISTS into a semi-join and, when the inner where is
// not on an index, materializes it by scanning the whole related table (EXPLAIN: MATERIALIZED … ALL, even for a
// LIMIT 5 page); a scalar subquery `(SELECT 1 … LIMIT 1) IS NOT NULL` is not converted, and probes the index per row.
import { exists, notExists, sql, type SQL } from 'drizzle-orm';
import type { DialectName } from './dialect';

/** A `SELECT 1 FROM related WHERE …` query builder (Drizzle's, for any dialect). */
interface RelatedRowsQuery {
  limit(limit: number): unknown;
}

export function relatedRowExists(dialect: DialectName, query: RelatedRowsQuery, isNegated: boolean): SQL {
  if (dialect === 'mysql') return isNegated ? sql`(${query.limit(1)}) is null` : sql`(${query.limit(1)}) is not null`;
  return isNegated ? notExists(query as never) : exists(query as never);
}
