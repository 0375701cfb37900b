// startDashboard (CONTRACT §8): serves the monitoring dashboard of an application made by createServer with
// `dashboard`, or of a cluster (a TelemetryCollector), on its own HTTP server. createServer never opens a
// port; `tessera start` calls this after the application listens.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SetupError } from '../errors';
import { telemetryOf } from '../telemetry/app-telemetry';
import type { TelemetrySource } from '../telemetry/telemetry-source';
import { DashboardAuth } from './dashboard-auth';
import { createDashboardApp } from './dashboard-app';
import { DashboardHistory } from './dashboard-history';
import { isLoopbackHost } from './dashboard-options';

export interface RunningDashboard {
  /** Where it listens, e.g. `http://127.0.0.1:4001`. */
  readonly url: string;
  /** Stops listening (open connections are closed), writes the minute in progress to the history and closes the file. */
  close(): Promise<void>;
}

export interface StartDashboardOptions {
  /** Where the dashboard reports its own problems (an unusable history file): default console.error. */
  warn?: (message: string) => void;
}

function sourceOf(target: object): TelemetrySource {
  const telemetry = telemetryOf(target);
  if (telemetry !== undefined) return telemetry;
  const candidate = target as Partial<TelemetrySource>;
  if (typeof candidate.refresh === 'function' && candidate.aggregate !== undefined && candidate.options !== undefined) return candidate as TelemetrySource;
  throw new SetupError('startDashboard: the application was created without the dashboard option (createServer({ dashboard: { … } }))');
}

function urlOf(host: string, port: number): string {
  const bare = host.startsWith('[') ? host.slice(1, -1) : host;
  return `http://${bare.includes(':') ? `[${bare}]` : bare}:${port}`;
}

function describeListenError(error: NodeJS.ErrnoException, where: string): Error {
  // The dashboard's port is an option of the application, not the CLI's --port: say which.
  if (error.code === 'EADDRINUSE') return new Error(`dashboard: ${where} is already in use: stop what holds it, or choose another port with dashboard.port (0 takes any free one)`, { cause: error });
  if (error.code === 'EACCES') return new Error(`dashboard: no permission to listen on ${where}: choose another port with dashboard.port`, { cause: error });
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') return new Error(`dashboard: cannot listen on ${where}: no such local address`, { cause: error });
  return new Error(`dashboard: cannot listen on ${where}: ${error.message}`, { cause: error });
}

/**
 * Serves the dashboard of `app` (createServer with `dashboard`) or of a cluster's collector, on
 * `dashboard.host:dashboard.port` (default 127.0.0.1:4001), and keeps its history file.
 *
 * @example
 * const app = createServer({ dashboard: { auth: { token: secret('DASHBOARD_TOKEN') } } });
 * app.listen(4000);
 * const dashboard = await startDashboard(app); // dashboard.url → http://127.0.0.1:4001
 */
export async function startDashboard(app: object, options: StartDashboardOptions = {}): Promise<RunningDashboard> {
  const source = sourceOf(app);
  const { host, port } = source.options;
  const warn = options.warn ?? ((message: string) => console.error(`tessera: ${message}`));
  const auth = new DashboardAuth(source.options);
  // spec §5.2, checked again here for a collector built by hand: never listen beyond loopback without auth.
  if (auth.isOpen && !isLoopbackHost(host)) throw new SetupError(`dashboard: host ${JSON.stringify(host)} is beyond loopback, so dashboard.auth (a token or authorize) is required`);
  auth.checkSecrets(); // a secret-reference token that is missing stops the start (SecretError), not the first sign-in

  const history = new DashboardHistory(source, warn);
  const server = http.createServer();
  const where = `${host}:${port}`;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', (error: NodeJS.ErrnoException) => reject(describeListenError(error, where)));
      server.listen(port, host.startsWith('[') ? host.slice(1, -1) : host, () => resolve());
    });
  } catch (error) {
    history.store.close();
    throw error;
  }
  const boundPort = (server.address() as AddressInfo).port;
  // Said once it serves (a start that fails has one line to say, its failure).
  if (auth.hasRandomSessionKey) {
    warn("dashboard: sign-in sessions are signed with a random key of this process: set dashboard.auth.sessionSecret (a secret of 32 characters or more) so that replicas behind one address accept each other's sessions and sessions outlive a restart");
  }
  auth.cookieName = `tessera_dashboard_${boundPort}`;

  source.open();
  history.start();
  server.on('request', createDashboardApp({ source, history, auth, warn }));

  let closing: Promise<void> | null = null;
  return {
    url: urlOf(host, boundPort),
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => {
        history.close();
        source.close();
      });
      return closing;
    },
  };
}
