// The per-test set-up of the dashboard suites: the server testbed's service, an application made with
// `dashboard` in any handler mode, its dashboard started on a free loopback port with a history file in a
// fresh temporary folder, and all of it closed (and the folder removed) after the test.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDashboard, type DashboardOptions, type RunningDashboard, type ServerOptions } from 'tessera-api';
import { useServerTestbed, type ServerTestbed } from './server-testbed';
import { listen, type ListenOptions, type TestServer } from './test-app';

export interface DashboardRun {
  server: TestServer;
  dashboard: RunningDashboard;
  /** Problems the dashboard reported (an unusable history file), one line each. */
  warnings: string[];
}

export interface DashboardTestbed extends ServerTestbed {
  /** A history file path in a fresh folder of its own, removed after the test. */
  historyFile(): string;
  /** Starts the test service with `dashboard` (port 0 and a fresh history file unless given) and its dashboard. */
  startWithDashboard(dashboard?: DashboardOptions, options?: ServerOptions, listenOptions?: ListenOptions): Promise<DashboardRun>;
  /** Starts the dashboard of an application already made; closed after the test. */
  startDashboard(app: object): Promise<{ dashboard: RunningDashboard; warnings: string[] }>;
}

export function useDashboardTestbed(): DashboardTestbed {
  const testbed = useServerTestbed();
  const dashboards: RunningDashboard[] = [];
  const servers: TestServer[] = [];
  const folders: string[] = [];

  const dashboardTestbed: DashboardTestbed = Object.create(testbed);
  dashboardTestbed.historyFile = () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-dashboard-'));
    folders.push(folder);
    return path.join(folder, 'history.db');
  };
  dashboardTestbed.startDashboard = async (app) => {
    const warnings: string[] = [];
    const dashboard = await startDashboard(app, { warn: (message) => warnings.push(message) });
    dashboards.push(dashboard);
    return { dashboard, warnings };
  };
  dashboardTestbed.startWithDashboard = async (dashboard = {}, options = {}, listenOptions = {}) => {
    const server = await listen({ ...options, dashboard: { port: 0, historyFile: dashboardTestbed.historyFile(), ...dashboard } }, listenOptions);
    servers.push(server);
    const started = await dashboardTestbed.startDashboard(server.app);
    return { server, ...started };
  };

  afterEach(async () => {
    for (const dashboard of dashboards.splice(0)) await dashboard.close();
    for (const server of servers.splice(0)) await server.close();
    for (const folder of folders.splice(0)) fs.rmSync(folder, { recursive: true, force: true });
  });
  return dashboardTestbed;
}

/** `fetch` of a dashboard path with a Bearer token (or none). */
export function fetchDashboard(dashboard: RunningDashboard, route: string, token?: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  if (token !== undefined) headers.set('authorization', `Bearer ${token}`);
  return fetch(`${dashboard.url}${route}`, { ...init, headers });
}

/** GET a JSON route of the dashboard and parse it, failing on anything but 200. */
export async function dashboardJson(dashboard: RunningDashboard, route: string, token?: string): Promise<any> {
  const response = await fetchDashboard(dashboard, route, token);
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${route} answered ${response.status}: ${text}`);
  return JSON.parse(text);
}
