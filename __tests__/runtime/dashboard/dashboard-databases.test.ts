// The dashboard's database part on SQLite, MariaDB and PostgreSQL: each database's health (the query /_health
// runs) and its statement cache exactly as statementCacheStats(db) counts it, in api/databases, api/summary
// and /metrics; a database that stops answering shows as failing; services sharing a database show once.
import { clearRegistry, defineService, startDashboard, statementCacheStats, type RunningDashboard } from 'tessera-api';
import { DIALECTS, openDatabase, type TestDatabase } from '../../helpers/databases';
import { dashboardJson } from '../../helpers/dashboard-testbed';
import { parsePrometheusText } from '../../helpers/prometheus-text';
import { defineTestService, listen, type TestServer } from '../../helpers/test-app';

const JSON_HEADERS = { 'content-type': 'application/json' };

interface Running {
  database: TestDatabase;
  server: TestServer;
  dashboard: RunningDashboard;
}

describe.each(DIALECTS)('the dashboard databases on %s', (dialect) => {
  const opened: Running[] = [];

  async function start(): Promise<Running> {
    clearRegistry();
    const database = await openDatabase(dialect, 'dashboard');
    await database.reset();
    defineTestService(database);
    const server = await listen({ dashboard: { port: 0, historyFile: ':memory:' } });
    const dashboard = await startDashboard(server.app, { warn: () => {} });
    const running = { database, server, dashboard };
    opened.push(running);
    return running;
  }

  afterEach(async () => {
    for (const { database, server, dashboard } of opened.splice(0)) {
      await dashboard.close();
      await server.close();
      await database.close().catch(() => {}); // a test may have closed it already
    }
    clearRegistry();
  });

  it('shows the health and the statement cache of the database, as statementCacheStats counts it', async () => {
    const { database, server, dashboard } = await start();
    // readings has no application defaults, so its queries go through the cache (spec §8).
    for (let index = 0; index < 3; index++) await (await server.fetch('/api/readings/query', { method: 'POST', headers: JSON_HEADERS, body: '{}' })).text();
    for (let index = 0; index < 2; index++) await (await server.fetch('/api/readings/1')).text();
    const stats = statementCacheStats(database.db);
    expect(stats.hits).toBeGreaterThanOrEqual(1);
    expect(stats.hits + stats.misses).toBeGreaterThanOrEqual(5);

    const { databases } = await dashboardJson(dashboard, '/api/databases');
    expect(databases).toEqual([
      {
        name: 'shop',
        dialect,
        status: 'ok',
        checkedAt: expect.any(Number),
        statementCache: { ...stats, hitRate: (stats.hits / (stats.hits + stats.misses)) * 100 },
      },
    ]);
    const summary = await dashboardJson(dashboard, '/api/summary');
    expect(summary.databases).toEqual([{ name: 'shop', dialect, statementCache: { ...stats, hitRate: (stats.hits / (stats.hits + stats.misses)) * 100 } }]);

    const metrics = parsePrometheusText(await (await fetch(`${dashboard.url}/metrics`)).text());
    expect(metrics.value('tessera_database_up', { database: 'shop', dialect })).toBe(1);
    expect(metrics.value('tessera_statement_cache_hits_total', { database: 'shop' })).toBe(stats.hits);
    expect(metrics.value('tessera_statement_cache_misses_total', { database: 'shop' })).toBe(stats.misses);
    expect(metrics.value('tessera_statement_cache_statements', { database: 'shop' })).toBe(stats.size);
  });

  it('shows a database that stops answering as failing, without its error text', async () => {
    const { database, dashboard } = await start();
    await database.close();
    const { databases } = await dashboardJson(dashboard, '/api/databases');
    expect(databases).toHaveLength(1);
    expect(databases[0].status).toMatch(/^database query failed( \([A-Za-z0-9_]+\))?$/);
    const metrics = parsePrometheusText(await (await fetch(`${dashboard.url}/metrics`)).text());
    expect(metrics.value('tessera_database_up', { database: 'shop', dialect })).toBe(0);
  });

  it('shows services that share a database once, under all their names', async () => {
    const { database, dashboard } = await startShared();
    const { databases } = await dashboardJson(dashboard, '/api/databases');
    expect(databases.map((each: { name: string; status: string }) => [each.name, each.status])).toEqual([['billing,shop', 'ok']]);
    expect(database.dialect).toBe(dialect);
  });

  async function startShared(): Promise<Running> {
    clearRegistry();
    const database = await openDatabase(dialect, 'dashboard');
    await database.reset();
    defineTestService(database);
    defineService({ name: 'billing', db: database.db });
    const server = await listen({ dashboard: { port: 0, historyFile: ':memory:' } });
    const dashboard = await startDashboard(server.app, { warn: () => {} });
    const running = { database, server, dashboard };
    opened.push(running);
    return running;
  }
});
