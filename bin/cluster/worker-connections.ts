// How connections reach a worker of `--workers`: the primary accepts them on the port and sends each socket
// over the cluster's IPC channel; the worker injects it into its HTTP server (Node's documented way to hand
// a server a connection from elsewhere). The worker's own server listens on an ephemeral loopback port that
// nobody uses, so that app.listen creates, tunes and tracks it exactly as in a single process.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** The message that carries an accepted socket from the primary to a worker. */
export const CONNECTION_MESSAGE = 'tessera:connection';

/** The listen arguments of a worker's own server: loopback, any port, not shared through the cluster. */
export const WORKER_LISTEN = { port: 0, host: '127.0.0.1', exclusive: true } as const;

/** Serves, on `server`, every socket the primary hands to this worker. */
export function serveHandedConnections(server: Server): void {
  process.on('message', (message: unknown, socket: Socket | undefined) => {
    if (message !== CONNECTION_MESSAGE || socket === undefined) return;
    server.emit('connection', socket);
    socket.resume(); // the primary accepted it paused (pauseOnConnect): it read nothing
  });
}

/** How the user chooses the port where it runs: `--port or PORT` (`tessera start` and `dev`), `PORT` (a bundle). */
export const CLI_PORT_SOURCES = '--port or PORT';
export const BUNDLE_PORT_SOURCES = 'PORT';

/**
 * One line for a port that cannot be bound, the same from a single process and from a cluster primary; a port
 * that is taken or refused says how to choose another (`portSources`, such as `--port or PORT`).
 */
export function describeListenError(error: NodeJS.ErrnoException, port: number, host: string | undefined, portSources: string): Error {
  const where = host === undefined ? `port ${port}` : `${host}:${port}`;
  const choose = `choose another port with ${portSources}`;
  if (error.code === 'EADDRINUSE') return new Error(`${where} is already in use: stop what holds it, or ${choose}`, { cause: error });
  if (error.code === 'EACCES') return new Error(`no permission to listen on ${where}: ${choose}`, { cause: error });
  if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') return new Error(`cannot listen on ${where}: no such local address`, { cause: error });
  return new Error(`cannot listen on ${where}: ${error.message}`, { cause: error });
}
