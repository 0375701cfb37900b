// Which Host headers the dashboard answers (issue 32, finding 6: DNS rebinding). Without auth, a loopback
// dashboard answers loopback names only (and `allowedHosts`); with auth, any name unless `allowedHosts` is given.
// Requests go through node:http, which sends the Host header it is given, as a rebound browser would.
import http from 'node:http';
import { useDashboardTestbed } from '../../helpers/dashboard-testbed';

/** GET `path` from the dashboard at `url`, with `host` as the Host header (and a Bearer token when given). */
function getWithHost(url: string, path: string, host: string, token?: string): Promise<{ status: number; body: string }> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { host };
    if (token !== undefined) headers.authorization = `Bearer ${token}`;
    const request = http.get({ host: '127.0.0.1', port, path, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
  });
}

describe('the dashboard and the Host header', () => {
  const testbed = useDashboardTestbed();

  it('answers an open dashboard only under loopback names: a rebound name gets 403 and no data', async () => {
    const { dashboard } = await testbed.startWithDashboard();
    const port = new URL(dashboard.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'localhost', `[::1]:${port}`, `app.localhost:${port}`, `127.0.0.2:${port}`]) {
      expect([host, (await getWithHost(dashboard.url, '/api/summary', host)).status]).toEqual([host, 200]);
    }
    for (const host of [`attacker.example:${port}`, 'attacker.example', `127.0.0.1.nip.io:${port}`, `0.0.0.0:${port}`, 'not a host']) {
      const answer = await getWithHost(dashboard.url, '/api/summary', host);
      expect([host, answer.status]).toEqual([host, 403]);
      expect(JSON.parse(answer.body)).toEqual({ error: { code: 'FORBIDDEN', message: expect.stringContaining('Host header') } });
    }
    for (const path of ['/', '/metrics', '/assets/dashboard.js']) expect([path, (await getWithHost(dashboard.url, path, 'attacker.example')).status]).toEqual([path, 403]);
  });

  it('answers the names of allowedHosts too, in any case', async () => {
    const { dashboard } = await testbed.startWithDashboard({ allowedHosts: ['dashboard.internal'] });
    expect((await getWithHost(dashboard.url, '/api/summary', 'Dashboard.Internal:8080')).status).toBe(200);
    expect((await getWithHost(dashboard.url, '/api/summary', 'other.internal')).status).toBe(403);
  });

  it('leaves the Host to auth when auth is set, unless allowedHosts is given', async () => {
    const open = await testbed.startWithDashboard({ auth: { token: 'a-token-for-hosts' } });
    // Behind a reverse proxy that passes its own name: the token decides.
    expect((await getWithHost(open.dashboard.url, '/api/summary', 'example.com')).status).toBe(401);
    expect((await getWithHost(open.dashboard.url, '/api/summary', 'example.com', 'a-token-for-hosts')).status).toBe(200);
    const listed = await testbed.startWithDashboard({ auth: { token: 'a-token-for-hosts' }, allowedHosts: ['example.com'] });
    expect((await getWithHost(listed.dashboard.url, '/api/summary', 'example.com', 'a-token-for-hosts')).status).toBe(200);
    expect((await getWithHost(listed.dashboard.url, '/api/summary', 'attacker.example', 'a-token-for-hosts')).status).toBe(403);
  });
});
