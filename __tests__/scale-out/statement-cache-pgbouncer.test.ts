// Why docs/production.md turns the statement cache off behind PgBouncer in transaction mode (1.18, Debian 12's):
// with it on, a replica under load answers 500 for statements prepared on another server connection; with it off,
// nothing fails (the scale-out suite runs three such replicas). Prints both runs' figures.
import path from 'node:path';
import { POSTGRES_URL, temporaryFolder } from '../helpers/bundles';
import { freePort } from '../helpers/free-port';
import { MixedLoad } from '../helpers/mixed-load';
import { startPgBouncer, type PgBouncer } from '../helpers/pgbouncer';
import { Replica } from '../helpers/replica';
import { buildScaleApp, printFigures, recreateItems } from './behind-haproxy.suite';

const CLIENTS = 6;
const LOAD_MS = 3000;
/** Its own table: the scale-out suite on PostgreSQL may run at the same time. */
const TABLE = 'so_cache_items';

describe('a bundle replica on PostgreSQL through PgBouncer in transaction mode', () => {
  const folder = temporaryFolder('statement-cache-pgbouncer');
  let pgbouncer: PgBouncer;
  let out: string;

  beforeAll(async () => {
    await recreateItems('postgres', TABLE);
    out = path.join(folder.path, 'dist');
    [, pgbouncer] = await Promise.all([buildScaleApp('postgres', out, TABLE), startPgBouncer(POSTGRES_URL)]);
  }, 240_000);
  afterAll(() => pgbouncer?.stop());

  async function underLoad(statementCache: 'on' | 'off') {
    const replica = new Replica(`cache ${statementCache}`, await freePort(), out, {
      SCALE_DIALECT: 'postgres',
      SCALE_TABLE: TABLE,
      SCALE_DATABASE_URL: pgbouncer.url,
      SCALE_STATEMENT_CACHE: statementCache,
    });
    await replica.start();
    try {
      const load = new MixedLoad({ port: replica.port, path: '/api/items', clients: CLIENTS });
      await new Promise((resolve) => setTimeout(resolve, LOAD_MS));
      await load.stop();
      printFigures(`PgBouncer 1.18, transaction mode, statement cache ${statementCache}`, load.figures());
      return { figures: load.figures()[0], stderr: replica.stderr };
    } finally {
      await replica.stop();
    }
  }

  it('with the statement cache on, fails requests: a named statement is missing on the next server connection', async () => {
    const { figures, stderr } = await underLoad('on');
    expect(figures.failed).toBeGreaterThan(0);
    expect(figures.byStatus['500']).toBe(figures.failed);
    // 26000: prepared statement "tessera_…" does not exist; 42P05: it already exists (another client prepared it there).
    expect(stderr).toMatch(/INTERNAL_ERROR \S+ \S+: DatabaseError: (26000|42P05)/);
  }, 120_000);

  it('with statementCache: false, fails nothing', async () => {
    const { figures, stderr } = await underLoad('off');
    expect(figures.sent).toBeGreaterThan(0);
    expect(figures.failed).toBe(0);
    expect(stderr).toBe('');
  }, 120_000);
});
