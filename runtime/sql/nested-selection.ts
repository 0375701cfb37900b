// The includes of a call as select fields of the parent's statement (CONTRACT §9): what nested-includes.ts plans and
// the read queries (read-queries.ts, select-shapes.ts) put into the parent's select and its cache key. A leaf file.
import type { SQL } from 'drizzle-orm';

/** The includes of one call as select fields of the parent's statement. */
export interface NestedSelection {
  /**
   * One field per include, named after the relation: DbRow | null (to-one) or DbRow[] (to-many), nested ones inside.
   * Built when asked: a cached statement asks only on a miss.
   */
  fields(): Record<string, SQL>;
  /** The includes' shape, appended to the parent statement's key (spec §8 rule 1); '' for an uncached statement. */
  readonly key: string;
  /** The placeholder values of the includes' where and limits (a cached statement's). */
  readonly values: Record<string, unknown>;
  /** Whether the statement may come from the cache (spec §8 rules 2 and 3, for the parent and each related resource). */
  readonly isCached: boolean;
}
