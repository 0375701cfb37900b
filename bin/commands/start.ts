// `tessera start <entry> [--port N]`: loads the entry, builds the server and listens (CONTRACT §7).
// The port follows spec §8.1; every failure is one `tessera: …` line and exit code 1.
import type { Server } from 'node:http';
import type { CommandModule } from 'yargs';
import { exitWithSupervisor, reportSourceFiles, withDevDefaults } from '../dev/dev-child';
import { exitWithError } from '../exit-with-error';
import { loadEntry } from '../load-entry';
import { DEFAULT_PORT, resolvePort } from '../port';
import { serve } from '../serve';
import { lastFlag, withEntryAndPort } from './shared-options';

export interface StartArgs {
  entry: string;
  port?: string | string[];
  /** Set by `tessera dev` on the child it restarts; not for direct use. */
  dev?: boolean;
}

export const startCommand: CommandModule<object, StartArgs> = {
  command: 'start <entry>',
  describe: 'Start the production server of an entry module',
  builder: (yargs) =>
    withEntryAndPort(yargs, `Port to listen on, 1 to 65535 (default: PORT, then ${DEFAULT_PORT})`).option('dev', { type: 'boolean', hidden: true }),
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
  const port = resolvePort({ flag: lastFlag(args.port), env: process.env.PORT, fallback: DEFAULT_PORT });
  const { options } = loadEntry(args.entry);
  if (args.dev !== true) return serve(options, port);

  const server = serve(withDevDefaults(options), port);
  reportSourceFiles();
  exitWithSupervisor();
  return server;
}
