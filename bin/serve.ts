// Builds the application from the entry's options and listens: the part `tessera start`, the dev child
// and a built bundle's server.js share, so all three print the same listening lines and port errors, and
// all three shut down gracefully on SIGTERM or SIGINT (shutdown.ts). In a cluster worker the listening
// lines go to the primary, which prints them once for all workers.
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import type { ListeningMessage } from './cluster/primary';
import { CLI_PORT_SOURCES, describeListenError, serveHandedConnections, WORKER_LISTEN } from './cluster/worker-connections';
import { exitWithError } from './exit-with-error';
import { stopOnSignals } from './shutdown';
import type { ServerOptions } from '../runtime/server/server-options';

/** The line tests and the dev supervisor wait for; printed once the port is bound. */
export const LISTENING_PREFIX = 'Tessera listening on ';

/**
 * Issue 29: without `cursorSecret`, list cursors and ETags are keyed per process, so another replica (or this one
 * restarted) refuses them; said once at start, beside where the server listens.
 */
export const RANDOM_KEYS_LINE =
  "  Keys:      no cursorSecret, so list cursors and ETags use this process's random key: replicas and restarts need a shared cursorSecret to accept each other's";

export interface ServeOptions {
  port: number;
  /** The interface to listen on (`--host`); all interfaces when undefined. */
  host?: string;
  /** How the user chooses the port, for the line a busy port prints: `--port or PORT` unless said otherwise. */
  portSources?: string;
}

/**
 * Creates the server with `options` (the entry's default export, possibly extended by the command), checks that
 * the database holds the resources' tables and columns, and listens. Prints where it listens and where the
 * documents are; a port that cannot be bound exits with one line.
 */
export async function serve(options: Record<string, unknown>, { port, host, portSources = CLI_PORT_SOURCES }: ServeOptions): Promise<Server> {
  // Loaded lazily, after the entry, so that `--help` and PORT errors answer without loading the runtime.
  const { checkDatabaseSchema, createServer, listServices, startDashboard, startTelemetryReporter } = require('../runtime') as typeof import('../runtime');
  const { docsPagePaths } = require('../runtime/server/docs-pages') as typeof import('../runtime/server/docs-pages');
  const serverOptions = options as ServerOptions;
  const app = createServer(serverOptions);
  const prefix = cluster.isWorker ? `tessera: worker ${process.pid}: ` : 'tessera: ';
  stopOnSignals(app, (line) => process.stdout.write(`${prefix}${line}\n`));
  await checkDatabaseSchema(serverOptions.services ?? listServices());
  // CONTRACT §8: the dashboard on its own port, first, so that a port it cannot have stops the start before the API listens.
  // A worker reports to the primary instead, which serves one dashboard for all (cluster/primary-dashboard.ts).
  const dashboard = serverOptions.dashboard === undefined || cluster.isWorker ? null : await startDashboard(app);
  const reporter = serverOptions.dashboard !== undefined && cluster.isWorker ? startTelemetryReporter(app) : null;

  // A cluster worker is handed its connections by the primary, which owns the port (cluster/primary.ts).
  const server = cluster.isWorker ? app.listen(WORKER_LISTEN) : host === undefined ? app.listen(port) : app.listen(port, host);
  if (cluster.isWorker) serveHandedConnections(server);
  if (dashboard !== null) server.once('close', () => void dashboard.close()); // writes the minute in progress to its history
  if (reporter !== null) server.once('close', () => void reporter.stop()); // the last report reaches the primary
  server.once('listening', () => {
    const address = server.address();
    const boundPort = !cluster.isWorker && typeof address === 'object' && address !== null ? address.port : port;
    const base = `http://${displayHost(host)}:${boundPort}`;
    const lines = [`${LISTENING_PREFIX}${base}${host === undefined ? ' (all interfaces)' : ''}`];
    const paths = docsPagePaths(serverOptions);
    if (paths !== null) {
      lines.push(`  API docs:  ${base}${paths.docs}  (Swagger UI: ${base}${paths.swagger})`, `  OpenAPI:   ${base}${paths.openApi}`);
      if (paths.reference !== null) lines.push(`  Reference: ${base}${paths.reference}`);
    }
    if (dashboard !== null) lines.push(`  Dashboard: ${dashboard.url}`);
    if (serverOptions.cursorSecret === undefined) lines.push(RANDOM_KEYS_LINE);
    if (cluster.isWorker) process.send!({ type: 'tessera:listening', lines } satisfies ListeningMessage);
    else process.stdout.write(lines.join('\n') + '\n');
  });
  server.once('error', (error: NodeJS.ErrnoException) => exitWithError(describeListenError(error, port, host, portSources)));
  return server;
}

/** How a browser on this machine reaches the server: localhost for the wildcard addresses, brackets for IPv6. */
function displayHost(host: string | undefined): string {
  if (host === undefined || host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
