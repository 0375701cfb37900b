// Builds the application from the entry's options and listens: the part `tessera start`, the dev child
// and a built bundle's server.js share, so all three print the same listening line and port errors.
import type { Server } from 'node:http';
import { exitWithError } from './exit-with-error';

/** The line tests and the dev supervisor wait for; printed once the port is bound. */
export const LISTENING_PREFIX = 'Tessera listening on ';

/**
 * Creates the server with `options` (the entry's default export, possibly extended by the command)
 * and listens on `port`. A port that cannot be bound exits with one line.
 */
export function serve(options: Record<string, unknown>, port: number): Server {
  // Loaded lazily, after the entry, so that `--help` and PORT errors answer without loading the runtime.
  const { createServer } = require('../runtime') as typeof import('../runtime');
  const app = createServer(options as Parameters<typeof createServer>[0]);

  const server = app.listen(port);
  server.once('listening', () => {
    const address = server.address();
    const boundPort = typeof address === 'object' && address !== null ? address.port : port;
    process.stdout.write(`${LISTENING_PREFIX}http://localhost:${boundPort}\n`);
  });
  server.once('error', (error: NodeJS.ErrnoException) => exitWithError(describeListenError(error, port)));
  return server;
}

function describeListenError(error: NodeJS.ErrnoException, port: number): Error {
  if (error.code === 'EADDRINUSE') return new Error(`port ${port} is already in use`, { cause: error });
  if (error.code === 'EACCES') return new Error(`no permission to listen on port ${port}`, { cause: error });
  return new Error(`cannot listen on port ${port}: ${error.message}`, { cause: error });
}
