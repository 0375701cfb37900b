// The `dashboard` option checked at createServer (CONTRACT §8): defaults, every mistake a SetupError naming
// it (never a token), and the loopback rule of spec §5.2, refused before anything listens.
import { createServer, SetupError, startDashboard } from 'tessera-api';
import { isLoopbackHost, resolveDashboardOptions } from '../../../runtime/dashboard/dashboard-options';
import { useServerTestbed } from '../../helpers/server-testbed';

describe('the dashboard option', () => {
  useServerTestbed();

  it('defaults to 127.0.0.1:4001, no auth, 7 days of history in .tessera/dashboard-history.db', () => {
    expect(resolveDashboardOptions({})).toEqual({
      port: 4001,
      host: '127.0.0.1',
      tokens: [],
      authorize: null,
      sessionSecret: null,
      allowedHosts: null,
      historyDays: 7,
      historyFile: '.tessera/dashboard-history.db',
      secretSource: undefined,
    });
  });

  it.each([
    [null, 'dashboard must be an object'],
    [true, 'dashboard must be an object'],
    [{ prot: 4001 }, 'dashboard.prot is not an option (expected port, host, auth, historyDays, historyFile, allowedHosts)'],
    [{ port: 70000 }, 'dashboard.port must be an integer from 0 to 65535'],
    [{ port: '4001' }, 'dashboard.port must be an integer from 0 to 65535'],
    [{ host: '' }, 'dashboard.host must be a non-empty string'],
    [{ historyDays: 0 }, 'dashboard.historyDays must be a whole number of days, 1 or more'],
    [{ historyDays: 1.5 }, 'dashboard.historyDays must be a whole number of days, 1 or more'],
    [{ historyFile: '' }, 'dashboard.historyFile must be a non-empty path'],
    [{ auth: 'secret' }, 'dashboard.auth must be an object'],
    [{ auth: {} }, 'dashboard.auth needs a token or an authorize function'],
    [{ auth: { tokens: 'x' } }, 'dashboard.auth.tokens is not an option (expected token, authorize, sessionSecret)'],
    [{ auth: { token: '' } }, 'dashboard.auth.token is empty'],
    [{ auth: { token: [] } }, 'dashboard.auth.token is an empty list'],
    [{ auth: { token: ['fine', 42] } }, 'dashboard.auth.token[1] must be a string or a secret'],
    [{ auth: { authorize: 'yes' } }, 'dashboard.auth.authorize must be a function'],
    [{ auth: { token: 't', sessionSecret: 'short' } }, 'dashboard.auth.sessionSecret must be at least 32 characters (openssl rand -hex 32)'],
    [{ auth: { token: 't', sessionSecret: 42 } }, "dashboard.auth.sessionSecret must be a string or a secret('…') reference"],
    [{ auth: { authorize: () => true, sessionSecret: 'x'.repeat(32) } }, 'dashboard.auth.sessionSecret signs the sessions of the token sign-in form: it needs dashboard.auth.token'],
    [{ allowedHosts: 'dashboard.internal' }, 'dashboard.allowedHosts must be a list of host names'],
    [{ allowedHosts: ['dashboard.internal:4001'] }, 'dashboard.allowedHosts[0] must be a host name without port'],
  ])('refuses %j at createServer', (dashboard, message) => {
    expect(() => createServer({ requestLogging: false, dashboard: dashboard as never })).toThrow(SetupError);
    expect(() => createServer({ requestLogging: false, dashboard: dashboard as never })).toThrow(message);
  });

  it('knows loopback: 127.0.0.0/8, ::1 and localhost, in their usual spellings', () => {
    for (const host of ['127.0.0.1', '127.4.5.6', '::1', '[::1]', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1', 'localhost', 'LOCALHOST']) expect([host, isLoopbackHost(host)]).toEqual([host, true]);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.20', '128.0.0.1', '::ffff:10.0.0.1', 'example.com', 'localhost.example.com']) expect([host, isLoopbackHost(host)]).toEqual([host, false]);
  });

  it('refuses a dashboard beyond loopback without auth before anything listens, naming the dashboard', async () => {
    for (const host of ['0.0.0.0', '::', '192.168.1.20']) {
      expect(() => createServer({ requestLogging: false, dashboard: { host } })).toThrow(
        `dashboard: host ${JSON.stringify(host)} is beyond loopback, so dashboard.auth (a token or authorize) is required; or bind it to 127.0.0.1`,
      );
    }
    // With auth it may listen anywhere; loopback needs none.
    expect(() => createServer({ requestLogging: false, dashboard: { host: '0.0.0.0', auth: { token: 'a-token' } } })).not.toThrow();
    expect(() => createServer({ requestLogging: false, dashboard: { host: '0.0.0.0', auth: { authorize: () => true } } })).not.toThrow();
    expect(() => createServer({ requestLogging: false, dashboard: { host: 'localhost' } })).not.toThrow();
  });

  it('refuses startDashboard for an application made without the option', async () => {
    await expect(startDashboard(createServer({ requestLogging: false }))).rejects.toThrow('startDashboard: the application was created without the dashboard option');
  });

  it('names a port in use', async () => {
    const app = createServer({ requestLogging: false, dashboard: { port: 0, historyFile: ':memory:' } });
    const first = await startDashboard(app, { warn: () => {} });
    try {
      const port = Number(new URL(first.url).port);
      const second = createServer({ requestLogging: false, dashboard: { port, historyFile: ':memory:' } });
      await expect(startDashboard(second, { warn: () => {} })).rejects.toThrow(`dashboard: 127.0.0.1:${port} is already in use`);
    } finally {
      await first.close();
    }
  });
});
