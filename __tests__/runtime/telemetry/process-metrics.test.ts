// The dashboard's GET /metrics as Prometheus's own checker reads it (issue 32): `promtool check metrics` (the
// version Debian ships) finds nothing to say about Tessera's families or prom-client's process metrics, of
// which the gauges prom-client names `_total` are left out (a `_total` name is a counter's).
import { fetchDashboard, useDashboardTestbed } from '../../helpers/dashboard-testbed';
import { LINT_TIMEOUT_MS, promtoolCheckMetrics } from '../../helpers/api-linters';
import { parsePrometheusText } from '../../helpers/prometheus-text';

describe('/metrics and promtool', () => {
  const testbed = useDashboardTestbed();

  it('passes `promtool check metrics`, with requests, errors and databases counted', async () => {
    const { server, dashboard } = await testbed.startWithDashboard();
    const created = await server.fetch('/api/notes', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: 'counted' }) });
    expect(created.status).toBe(201);
    expect((await server.fetch('/api/notes/no-such-note')).status).toBe(404);
    expect((await server.fetch('/nowhere')).status).toBe(404);

    const response = await fetchDashboard(dashboard, '/metrics');
    expect(response.status).toBe(200);
    const text = await response.text();
    const metrics = parsePrometheusText(text);
    expect(metrics.find('tessera_http_requests_total').length).toBeGreaterThan(0);
    expect(metrics.types.get('nodejs_active_handles')).toBe('gauge');
    expect(await promtoolCheckMetrics(text)).toEqual({ status: 0, output: '' });
    for (const name of ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total']) expect([name, metrics.types.has(name)]).toEqual([name, false]);
  }, LINT_TIMEOUT_MS);
});
