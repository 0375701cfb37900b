// What the statement suites (statement-key, statement-cache) share: the fixture opened per file and reset per test,
// shops over fresh and uncached db objects, and `statementCacheStats` read as what moved since the last look.
import { clearRegistry, createServer, statementCacheStats } from 'tessera-api';
import type { DialectName } from '../../helpers/databases';
import { defineShop, openStatementCacheFixture, productRow, type Shop, type StatementCacheFixture } from './statement-cache-fixture';

export interface StatsChange {
  size: number;
  hits: number;
  misses: number;
  evictions: number;
}

export const MISS: StatsChange = { size: 1, hits: 0, misses: 1, evictions: 0 };
export const HIT: StatsChange = { size: 0, hits: 1, misses: 0, evictions: 0 };
export const UNTOUCHED: StatsChange = { size: 0, hits: 0, misses: 0, evictions: 0 };

/** Follows one db's stats: `change()` answers what moved since the previous call (or since tracking began). */
export function trackStats(db: object) {
  let last = statementCacheStats(db);
  return {
    change(): StatsChange {
      const now = statementCacheStats(db);
      const moved = { size: now.size - last.size, hits: now.hits - last.hits, misses: now.misses - last.misses, evictions: now.evictions - last.evictions };
      last = now;
      return moved;
    },
  };
}

export const idsOf = (answer: { items: Record<string, unknown>[] }) => answer.items.map((row) => row.id);
export const rowsOf = (ids: number[]) => ids.map(productRow);

export interface StatementSuite {
  /** The fixture of this file, opened in beforeAll. */
  readonly fixture: StatementCacheFixture;
  /** A fresh db object (fresh stats) with the suites' service over it. */
  freshShop(name?: string): { db: any; shop: Shop };
  /** Another db object over the same client, served with `statementCache: false`: the reference answers. */
  uncachedShop(): Shop;
}

/**
 * Registers the hooks of one suite file: opens the fixture in `namespace` (its own per file, see
 * openStatementCacheFixture), and before each test clears the registry and resets the rows.
 */
export function useStatementSuite(dialect: DialectName, namespace: string): StatementSuite {
  let opened: StatementCacheFixture | undefined;
  const fixture = (): StatementCacheFixture => {
    if (opened === undefined) throw new Error('the statement cache fixture opens in beforeAll');
    return opened;
  };

  beforeAll(async () => {
    opened = await openStatementCacheFixture(dialect, namespace);
  });
  afterAll(async () => {
    await opened?.close();
  });
  beforeEach(async () => {
    clearRegistry();
    await fixture().reset();
  });

  const freshShop = (name = 'shop') => {
    const db = fixture().freshDb();
    return { db, shop: defineShop(fixture(), db, name) };
  };
  return {
    get fixture() {
      return fixture();
    },
    freshShop,
    uncachedShop() {
      const { shop } = freshShop('uncached');
      createServer({ services: [shop.service], statementCache: false, compiler: false, docs: false, requestLogging: false });
      return shop;
    },
  };
}
