// `tessera start <entry> [--port N]`: loads the entry, builds the server and listens (CONTRACT §7).
// The port follows spec §8.1; every failure is one `tessera: …` line and exit code 1.
import type { Server } from 'node:http';
import type { CommandModule } from 'yargs';
import { exitWithError } from '../exit-with-error';
import { loadEntry } from '../load-entry';
import { DEFAULT_PORT, resolvePort } from '../port';

export interface StartArgs {
  entry: string;
  port?: string | string[];
}

export const startCommand: CommandModule<object, StartArgs> = {
  command: 'start <entry>',
  describe: 'Start the production server of an entry module',
  builder: (yargs) =>
    yargs
      .positional('entry', {
        type: 'string',
        demandOption: true,
        describe: 'Module that defines the services and may default-export the server options',
      })
      .option('port', {
        // A string, so that spec §8.1's validator in bin/port.ts judges it rather than yargs.
        type: 'string',
        describe: `Port to listen on, 1 to 65535 (default: PORT, then ${DEFAULT_PORT})`,
      }),
  handler: (argv) => {
    try {
      startServer(argv);
    } catch (error) {
      exitWithError(error);
    }
  },
};

/** Resolves the port, loads the entry, creates the application and starts listening. */
export function startServer(args: StartArgs): Server {
  // `--port 1 --port 2` arrives as an array; the last one wins, as with most CLIs.
  const flag = Array.isArray(args.port) ? args.port[args.port.length - 1] : args.port;
  const port = resolvePort({ flag, env: process.env.PORT, fallback: DEFAULT_PORT });
  const { options } = loadEntry(args.entry);

  // Loaded lazily, after the entry, for the same reason as in load-entry.ts.
  const { createServer } = require('../../runtime') as typeof import('../../runtime');
  const app = createServer(options as Parameters<typeof createServer>[0]);

  const server = app.listen(port);
  server.once('listening', () => {
    const address = server.address();
    const boundPort = typeof address === 'object' && address !== null ? address.port : port;
    process.stdout.write(`Tessera listening on http://localhost:${boundPort}\n`);
  });
  server.once('error', (error: NodeJS.ErrnoException) => exitWithError(describeListenError(error, port)));
  return server;
}

function describeListenError(error: NodeJS.ErrnoException, port: number): Error {
  if (error.code === 'EADDRINUSE') return new Error(`port ${port} is already in use`, { cause: error });
  if (error.code === 'EACCES') return new Error(`no permission to listen on port ${port}`, { cause: error });
  return new Error(`cannot listen on port ${port}: ${error.message}`, { cause: error });
}
