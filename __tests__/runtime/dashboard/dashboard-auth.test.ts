// Who may read the dashboard (spec §5.2, CONTRACT §8), against a real dashboard server: no auth on loopback,
// tokens (each of a list, secret references, Bearer or the sign-in cookie), wrong tokens, a cookie from another
// token, `authorize` answering true, false or a Response, and the read-only rule. No answer shows a token.
import { createHash, createHmac } from 'node:crypto';
import { overrideSecret, resetSecrets, secret } from 'tessera-api';
import { fetchDashboard, useDashboardTestbed } from '../../helpers/dashboard-testbed';

const TOKENS = ['first-token-7f3a', 'second-token-91bc'];

function sessionCookieOf(response: Response): string {
  const header = response.headers.get('set-cookie');
  if (header === null) throw new Error('no Set-Cookie');
  return header.split(';')[0];
}

const SESSION_SECRET = 'a-session-secret-of-32-characters-at-least';

/** A cookie as a dashboard with SESSION_SECRET would issue it for `token` at `issuedAt` (seconds). */
function forgeCookie(name: string, token: string, issuedAt: number, id = 'AAAAAAAAAAAAAAAAAAAAAA'): string {
  const tokenDigest = createHash('sha256').update(token).digest('hex');
  const mac = createHmac('sha256', SESSION_SECRET).update(`tessera-dashboard-session:${id}:${issuedAt}:${tokenDigest}`).digest('base64url');
  return `${name}=${id}.${issuedAt}.${mac}`;
}

function cookieName(dashboard: { url: string }): string {
  return `tessera_dashboard_${new URL(dashboard.url).port}`;
}

describe('dashboard authentication', () => {
  const testbed = useDashboardTestbed();
  afterEach(() => resetSecrets());

  it('lets everyone in without auth, bound to loopback', async () => {
    const { dashboard } = await testbed.startWithDashboard({ host: '127.0.0.1' });
    expect((await fetchDashboard(dashboard, '/api/summary')).status).toBe(200);
    expect((await fetchDashboard(dashboard, '/metrics')).status).toBe(200);
    const page = await fetchDashboard(dashboard, '/');
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('id="operations"');
  });

  it('answers every route 401 without a credential: the page with the sign-in form, the others with the JSON error', async () => {
    const { dashboard } = await testbed.startWithDashboard({ auth: { token: TOKENS[0] } });
    const page = await fetchDashboard(dashboard, '/');
    expect(page.status).toBe(401);
    expect(page.headers.get('www-authenticate')).toBe('Bearer realm="tessera-dashboard"');
    const html = await page.text();
    expect(html).toContain('<form id="sign-in"');
    expect(html).not.toContain('id="operations"');
    for (const route of ['/api/summary', '/api/databases', '/api/series?range=hour', '/metrics', '/assets/dashboard.js', '/assets/uPlot.iife.min.js', '/no-such-route']) {
      const response = await fetchDashboard(dashboard, route);
      expect([route, response.status]).toEqual([route, 401]);
      expect(await response.json()).toEqual({ error: { code: 'UNAUTHORIZED', message: 'dashboard credentials required' } });
    }
    // The sign-in form's own script and stylesheet hold no data and must load before signing in.
    expect((await fetchDashboard(dashboard, '/assets/sign-in.js')).status).toBe(200);
    expect((await fetchDashboard(dashboard, '/assets/dashboard.css')).status).toBe(200);
  });

  it('refuses a wrong token, however close to a right one', async () => {
    const { dashboard } = await testbed.startWithDashboard({ auth: { token: TOKENS } });
    for (const wrong of ['nope', TOKENS[0].slice(0, -1), `${TOKENS[0]}x`, TOKENS[0].toUpperCase(), `${TOKENS[0]} ${TOKENS[1]}`]) {
      expect([wrong, (await fetchDashboard(dashboard, '/api/summary', wrong)).status]).toEqual([wrong, 401]);
      expect([wrong, (await fetchDashboard(dashboard, '/session', wrong)).status]).toEqual([wrong, 401]);
    }
    expect((await fetchDashboard(dashboard, '/api/summary', undefined, { headers: { authorization: `Basic ${TOKENS[0]}` } })).status).toBe(401);
  });

  it('lets in each token of a list, a secret reference among them', async () => {
    const reference = secret('DASHBOARD_TOKEN');
    overrideSecret('DASHBOARD_TOKEN', 'token-from-the-environment');
    const { dashboard } = await testbed.startWithDashboard({ auth: { token: [...TOKENS, reference] } });
    for (const token of [...TOKENS, 'token-from-the-environment']) {
      expect([token, (await fetchDashboard(dashboard, '/api/summary', token)).status]).toEqual([token, 200]);
      expect([token, (await fetchDashboard(dashboard, '/metrics', token)).status]).toEqual([token, 200]);
    }
    // A secret is read at each request: a rotated value takes over, the old one stops working.
    overrideSecret('DASHBOARD_TOKEN', 'rotated-token');
    expect((await fetchDashboard(dashboard, '/api/summary', 'token-from-the-environment')).status).toBe(401);
    expect((await fetchDashboard(dashboard, '/api/summary', 'rotated-token')).status).toBe(200);
  });

  it('signs in through the form: a valid Bearer token on session sets an HttpOnly, SameSite=Strict cookie that lets in', async () => {
    const { dashboard } = await testbed.startWithDashboard({ auth: { token: TOKENS } });
    const signIn = await fetchDashboard(dashboard, '/session', TOKENS[1]);
    expect(signIn.status).toBe(204);
    const setCookie = signIn.headers.get('set-cookie')!;
    // A random session id, its issue time and a MAC: nothing of the token.
    expect(setCookie).toMatch(new RegExp(`^${cookieName(dashboard)}=[A-Za-z0-9_-]{22}\\.\\d+\\.[A-Za-z0-9_-]{43}; Path=/; Max-Age=43200; HttpOnly; SameSite=Strict$`));
    expect(setCookie).not.toContain(TOKENS[1]);
    const cookie = sessionCookieOf(signIn);
    expect((await fetchDashboard(dashboard, '/api/summary', undefined, { headers: { cookie } })).status).toBe(200);
    const page = await fetchDashboard(dashboard, '/', undefined, { headers: { cookie: `other=1; ${cookie}` } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('href="sign-out"');

    const signOut = await fetchDashboard(dashboard, '/sign-out', undefined, { headers: { cookie }, redirect: 'manual' });
    expect(signOut.status).toBe(303);
    expect(signOut.headers.get('set-cookie')).toBe(`${cookieName(dashboard)}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict`);
    // Behind a TLS proxy the cookie is Secure.
    const overTls = await fetchDashboard(dashboard, '/session', TOKENS[0], { headers: { 'x-forwarded-proto': 'https' } });
    expect(overTls.headers.get('set-cookie')).toMatch(/; Secure$/);
    expect((await fetchDashboard(dashboard, '/session')).headers.get('set-cookie')).toBeNull();
  });

  it('refuses a cookie from another token, a forged one and an expired one', async () => {
    const reference = secret('DASHBOARD_TOKEN');
    overrideSecret('DASHBOARD_TOKEN', 'the-token-today');
    const { dashboard } = await testbed.startWithDashboard({ auth: { token: reference, sessionSecret: SESSION_SECRET } });
    const other = await testbed.startWithDashboard({ auth: { token: 'the-other-dashboard-token', sessionSecret: SESSION_SECRET } });
    const name = cookieName(dashboard);
    const now = Math.floor(Date.now() / 1000);

    // Signed in on the other dashboard, presented here.
    const otherCookie = sessionCookieOf(await fetchDashboard(other.dashboard, '/session', 'the-other-dashboard-token')).split('=')[1];
    expect((await fetchDashboard(dashboard, '/api/summary', undefined, { headers: { cookie: `${name}=${otherCookie}` } })).status).toBe(401);
    // Issued for this dashboard's token, which has changed since.
    const cookie = sessionCookieOf(await fetchDashboard(dashboard, '/session', 'the-token-today'));
    expect((await fetchDashboard(dashboard, '/api/summary', undefined, { headers: { cookie } })).status).toBe(200);
    overrideSecret('DASHBOARD_TOKEN', 'the-token-tomorrow');
    expect((await fetchDashboard(dashboard, '/api/summary', undefined, { headers: { cookie } })).status).toBe(401);
    // Right token, but older than 12 hours; and a signature that is not one.
    expect((await fetchDashboard(dashboard, '/api/summary', undefined, { headers: { cookie: forgeCookie(name, 'the-token-tomorrow', now - 60) } })).status).toBe(200);
    expect((await fetchDashboard(dashboard, '/api/summary', undefined, { headers: { cookie: forgeCookie(name, 'the-token-tomorrow', now - 13 * 3600) } })).status).toBe(401);
    expect((await fetchDashboard(dashboard, '/api/summary', undefined, { headers: { cookie: `${name}=${'A'.repeat(22)}.${now}.${'A'.repeat(43)}` } })).status).toBe(401);
    expect((await fetchDashboard(dashboard, '/api/summary', undefined, { headers: { cookie: `${name}=the-token-tomorrow` } })).status).toBe(401);
  });

  it('asks authorize with a WHATWG Request: true lets in, false answers 401, a Response is sent as it is', async () => {
    const seen: Request[] = [];
    const { dashboard } = await testbed.startWithDashboard({
      auth: {
        authorize: (request) => {
          seen.push(request);
          const user = request.headers.get('x-forwarded-user');
          if (user === 'ops') return true;
          if (user === null) return new Response('sign in at the proxy', { status: 302, headers: { location: 'https://sso.example/login', 'x-from': 'authorize' } });
          return false;
        },
      },
    });
    const allowed = await fetchDashboard(dashboard, '/api/summary?x=1', undefined, { headers: { 'x-forwarded-user': 'ops' } });
    expect(allowed.status).toBe(200);
    expect(seen[0]).toBeInstanceOf(Request);
    expect(seen[0].method).toBe('GET');
    expect(new URL(seen[0].url).pathname + new URL(seen[0].url).search).toBe('/api/summary?x=1');

    const refused = await fetchDashboard(dashboard, '/', undefined, { headers: { 'x-forwarded-user': 'someone' } });
    expect(refused.status).toBe(401);
    const refusedPage = await refused.text();
    expect(refusedPage).toContain('You are not allowed to see this dashboard.');
    expect(refusedPage).not.toContain('<form'); // no token to type: no form
    expect((await fetchDashboard(dashboard, '/metrics', undefined, { headers: { 'x-forwarded-user': 'someone' } })).status).toBe(401);

    const redirected = await fetchDashboard(dashboard, '/', undefined, { redirect: 'manual' });
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get('location')).toBe('https://sso.example/login');
    expect(redirected.headers.get('x-from')).toBe('authorize');
    expect(await redirected.text()).toBe('sign in at the proxy');
  });

  it('takes a valid token without asking authorize, and authorize for the rest', async () => {
    let asked = 0;
    const { dashboard } = await testbed.startWithDashboard({ auth: { token: TOKENS[0], authorize: async () => (asked++, false) } });
    expect((await fetchDashboard(dashboard, '/api/summary', TOKENS[0])).status).toBe(200);
    expect(asked).toBe(0);
    expect((await fetchDashboard(dashboard, '/api/summary')).status).toBe(401);
    expect(asked).toBe(1);
    // With a token configured, the refused page is the sign-in form.
    expect(await (await fetchDashboard(dashboard, '/')).text()).toContain('<form id="sign-in"');
  });

  it('answers 500 when authorize throws, and logs it without its message', async () => {
    const { dashboard, warnings } = await testbed.startWithDashboard({
      auth: {
        authorize: () => {
          throw new TypeError('secret detail 1234');
        },
      },
    });
    const response = await fetchDashboard(dashboard, '/api/summary');
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } });
    expect(warnings).toEqual(['dashboard: auth.authorize failed (TypeError); the request was refused']);
  });

  it('is read-only: any method but GET and HEAD answers 405, with or without credentials', async () => {
    const { dashboard } = await testbed.startWithDashboard({ auth: { token: TOKENS[0] } });
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']) {
      for (const token of [undefined, TOKENS[0]]) {
        const response = await fetchDashboard(dashboard, '/api/summary', token, { method });
        expect([method, response.status]).toEqual([method, 405]);
        expect(response.headers.get('allow')).toBe('GET, HEAD');
      }
    }
    const head = await fetchDashboard(dashboard, '/metrics', TOKENS[0], { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('never shows a token: not in the page, the sign-in form, an error or the JSON routes', async () => {
    const { dashboard, warnings } = await testbed.startWithDashboard({ auth: { token: TOKENS } });
    const bodies = await Promise.all(
      [
        fetchDashboard(dashboard, '/'),
        fetchDashboard(dashboard, '/api/summary'),
        fetchDashboard(dashboard, '/session', 'wrong'),
        fetchDashboard(dashboard, '/', TOKENS[0]),
        fetchDashboard(dashboard, '/api/summary', TOKENS[0]),
        fetchDashboard(dashboard, '/metrics', TOKENS[0]),
        fetchDashboard(dashboard, '/api/databases', TOKENS[0]),
      ].map(async (response) => (await response).text()),
    );
    for (const text of [...bodies, ...warnings]) for (const token of TOKENS) expect(text).not.toContain(token);
  });
});
