// The prepared statement cache of spec §8: per database, at most 128 statements keyed by query shape,
// the least recently used evicted first. Values never enter a key; they bind to the statement's placeholders.
// It holds Drizzle's prepared queries and the compiled handlers' raw statements (fixed-execution.ts) alike.

/** spec §8: up to 128 statements per database. */
export const STATEMENT_CACHE_CAPACITY = 128;

export interface StatementCacheStats {
  /** Statements held now. */
  readonly size: number;
  /** The most it holds (128). */
  readonly capacity: number;
  /** Calls that found their shape's statement prepared. */
  readonly hits: number;
  /** Calls that prepared a statement (construction-time preparation counts as neither hit nor miss). */
  readonly misses: number;
  /** Statements dropped to make room, least recently used first. */
  readonly evictions: number;
}

/** @internal One database's cache; `statementCacheStats(db)` is its public face. */
export class StatementCache {
  // A Map iterates in insertion order: re-inserting on every hit keeps the least recently used first.
  readonly #statements = new Map<string, object>();
  #enabled = true;
  #hits = 0;
  #misses = 0;
  #evictions = 0;

  /** False once a server turned the cache off for this database (`statementCache: false`). */
  get isEnabled(): boolean {
    return this.#enabled;
  }

  /** Drops every statement and prepares none from now on: each call builds its query afresh. */
  disable(): void {
    this.#enabled = false;
    for (const statement of this.#statements.values()) released(statement);
    this.#statements.clear();
  }

  /** The statement for a shape, prepared by `prepare` when it is not held (a miss). A key always holds one kind of statement. */
  statement<T extends object>(key: string, prepare: () => T): T {
    const held = this.#statements.get(key);
    if (held !== undefined) {
      this.#hits++;
      this.#statements.delete(key);
      this.#statements.set(key, held);
      return held as T;
    }
    this.#misses++;
    return this.#insert(key, prepare());
  }

  /** spec §8 rule 4: prepares a shape ahead of its first call (no hit or miss is counted). */
  preload(key: string, prepare: () => object): void {
    if (!this.#statements.has(key)) this.#insert(key, prepare());
  }

  /** Whether a shape's statement is held (counts as neither hit nor miss). */
  has(key: string): boolean {
    return this.#statements.has(key);
  }

  stats(): StatementCacheStats {
    return { size: this.#statements.size, capacity: STATEMENT_CACHE_CAPACITY, hits: this.#hits, misses: this.#misses, evictions: this.#evictions };
  }

  #insert<T extends object>(key: string, statement: T): T {
    this.#statements.set(key, statement);
    if (this.#statements.size > STATEMENT_CACHE_CAPACITY) {
      const oldest = this.#statements.keys().next().value as string;
      released(this.#statements.get(oldest)!);
      this.#statements.delete(oldest);
      this.#evictions++;
    }
    return statement;
  }
}

/** Lets the database free a statement the cache dropped, where it holds one for it (RawStatement.release). */
function released(statement: object): void {
  (statement as { release?(): void }).release?.();
}

const caches = new WeakMap<object, StatementCache>();

/** @internal The cache of a drizzle database, created on first use. */
export function statementCacheOf(db: object): StatementCache {
  let cache = caches.get(db);
  if (cache === undefined) caches.set(db, (cache = new StatementCache()));
  return cache;
}

/**
 * The prepared statement cache of a database (spec §8): how many statements it holds, its capacity
 * (128), and its hits, misses and evictions since the process started.
 *
 * @example
 * const { size, hits, misses } = statementCacheStats(db);
 */
export function statementCacheStats(db: object): StatementCacheStats {
  return statementCacheOf(db).stats();
}
