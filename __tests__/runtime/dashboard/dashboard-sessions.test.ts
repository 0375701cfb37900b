// The sign-in form's sessions (issue 32, finding 6) against real dashboard servers: sign-out revokes the
// session (a copied cookie stops working), replicas sharing `sessionSecret` accept each other's sessions,
// without it a line says so at start, and a secret missing at run time answers 503 with one true log line.
import { overrideSecret, resetSecrets, secret } from 'tessera-api';
import { fetchDashboard, useDashboardTestbed } from '../../helpers/dashboard-testbed';

const TOKEN = 'the-dashboard-token-5e1';
const SESSION_SECRET = 'replicas-share-this-session-secret-0123';
const RANDOM_KEY_LINE = /^dashboard: sign-in sessions are signed with a random key of this process: set dashboard\.auth\.sessionSecret/;

async function signIn(dashboard: { url: string }, token = TOKEN): Promise<string> {
  const answer = await fetchDashboard(dashboard as never, '/session', token);
  expect(answer.status).toBe(204);
  return answer.headers.get('set-cookie')!.split(';')[0];
}

const withCookie = (cookie: string): RequestInit => ({ headers: { cookie } });

describe('dashboard sessions', () => {
  const testbed = useDashboardTestbed();
  afterEach(() => resetSecrets());

  it('revokes the session on sign-out: the same cookie, copied before, is refused afterwards; other sessions stay', async () => {
    const { dashboard } = await testbed.startWithDashboard({ auth: { token: TOKEN } });
    const copied = await signIn(dashboard);
    const other = await signIn(dashboard);
    expect((await fetchDashboard(dashboard, '/api/summary', undefined, withCookie(copied))).status).toBe(200);

    const signOut = await fetchDashboard(dashboard, '/sign-out', undefined, { ...withCookie(copied), redirect: 'manual' });
    expect(signOut.status).toBe(303);
    expect((await fetchDashboard(dashboard, '/api/summary', undefined, withCookie(copied))).status).toBe(401);
    expect((await fetchDashboard(dashboard, '/', undefined, withCookie(copied))).status).toBe(401);
    expect((await fetchDashboard(dashboard, '/api/summary', undefined, withCookie(other))).status).toBe(200);
  });

  it('lets replicas that share sessionSecret accept each other\'s sessions; sign-out revokes on the replica that answered it', async () => {
    const first = await testbed.startWithDashboard({ auth: { token: TOKEN, sessionSecret: SESSION_SECRET } });
    const second = await testbed.startWithDashboard({ auth: { token: TOKEN, sessionSecret: SESSION_SECRET } });
    expect(first.warnings.filter((line) => RANDOM_KEY_LINE.test(line))).toEqual([]);
    // Each dashboard names its cookie after its port; behind one address, replicas share the port.
    const [name, value] = (await signIn(first.dashboard)).split('=');
    const secondName = `tessera_dashboard_${new URL(second.dashboard.url).port}`;
    expect(name).not.toBe(secondName);
    expect((await fetchDashboard(second.dashboard, '/api/summary', undefined, withCookie(`${secondName}=${value}`))).status).toBe(200);
    await fetchDashboard(first.dashboard, '/sign-out', undefined, { ...withCookie(`${name}=${value}`), redirect: 'manual' });
    expect((await fetchDashboard(first.dashboard, '/api/summary', undefined, withCookie(`${name}=${value}`))).status).toBe(401);
    // Revocation lives in each process (docs/dashboard.md): rotate sessionSecret to end sessions everywhere.
    expect((await fetchDashboard(second.dashboard, '/api/summary', undefined, withCookie(`${secondName}=${value}`))).status).toBe(200);
  });

  it('says once at start that sessions use a random key of the process without sessionSecret, and another process refuses them', async () => {
    const first = await testbed.startWithDashboard({ auth: { token: TOKEN } });
    const second = await testbed.startWithDashboard({ auth: { token: TOKEN } });
    expect(first.warnings.filter((line) => RANDOM_KEY_LINE.test(line))).toHaveLength(1);
    const value = (await signIn(first.dashboard)).split('=')[1];
    const secondName = `tessera_dashboard_${new URL(second.dashboard.url).port}`;
    expect((await fetchDashboard(second.dashboard, '/api/summary', undefined, withCookie(`${secondName}=${value}`))).status).toBe(401);
    // authorize alone has no sessions, so nothing to say.
    const authorizeOnly = await testbed.startWithDashboard({ auth: { authorize: () => true } });
    expect(authorizeOnly.warnings).toEqual([]);
  });

  it('answers 503 while a token secret is missing at run time, with one line naming it (not authorize), and recovers', async () => {
    const reference = secret('DASHBOARD_TOKEN');
    overrideSecret('DASHBOARD_TOKEN', TOKEN);
    const { dashboard, warnings } = await testbed.startWithDashboard({ auth: { token: reference, sessionSecret: SESSION_SECRET } });
    const cookie = await signIn(dashboard);
    resetSecrets(); // the variable is gone: the reference stays declared, its value does not
    const declared = secret('DASHBOARD_TOKEN');
    expect(declared.isSet()).toBe(false);

    for (const [route, token] of [['/api/summary', TOKEN], ['/metrics', undefined], ['/', undefined], ['/session', TOKEN]] as const) {
      const answer = await fetchDashboard(dashboard, route, token, route === '/metrics' ? withCookie(cookie) : {});
      expect([route, answer.status]).toEqual([route, 503]);
      expect(await answer.json()).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: 'the dashboard cannot check credentials now; retry later' } });
    }
    expect(warnings).toEqual(['dashboard: secret DASHBOARD_TOKEN is not set, so credentials cannot be checked: every request is answered 503 until it is set']);

    overrideSecret('DASHBOARD_TOKEN', TOKEN);
    expect((await fetchDashboard(dashboard, '/api/summary', TOKEN)).status).toBe(200);
    expect((await fetchDashboard(dashboard, '/api/summary', undefined, withCookie(cookie))).status).toBe(200);
    expect(warnings).toEqual([expect.stringContaining('DASHBOARD_TOKEN is not set'), 'dashboard: secret DASHBOARD_TOKEN can be read again; requests are checked as before']);
  });

  it('stops the start with one line when a token or session secret is missing, or the session secret is short', async () => {
    const token = secret('DASHBOARD_TOKEN');
    const sessionSecret = secret('DASHBOARD_SESSION_SECRET');
    const options = { auth: { token, sessionSecret } };
    overrideSecret('DASHBOARD_TOKEN', TOKEN);
    await expect(testbed.startWithDashboard(options, { secrets: { validate: false } })).rejects.toThrow(/^secret DASHBOARD_SESSION_SECRET is not set$/);
    overrideSecret('DASHBOARD_SESSION_SECRET', 'too-short');
    await expect(testbed.startWithDashboard(options, { secrets: { validate: false } })).rejects.toThrow('dashboard.auth.sessionSecret must be at least 32 characters');
    overrideSecret('DASHBOARD_SESSION_SECRET', SESSION_SECRET);
    const { dashboard } = await testbed.startWithDashboard(options, { secrets: { validate: false } });
    expect((await fetchDashboard(dashboard, '/api/summary', TOKEN)).status).toBe(200);
  });
});
