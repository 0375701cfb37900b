// `tessera start <entry> [--port N] [--host H] [--no-compiler]`: loads the entry, builds the server and listens
// (CONTRACT §7). The port follows spec §8.1; every failure is one `tessera: …` line and exit code 1.
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import type { CommandModule } from 'yargs';
import { runPrimary } from '../cluster/primary';
import { checkDatabasesOnce } from '../cluster/primary-database-check';
import { primaryServices } from '../cluster/primary-dashboard';
import { exitWithSupervisor, reportSourceFiles, withDevDefaults } from '../dev/dev-child';
import { exitWithError } from '../exit-with-error';
import { loadEntry } from '../load-entry';
import { DEFAULT_PORT, resolvePort } from '../port';
import { resolveWorkers } from '../workers';
import { serve } from '../serve';
import { lastFlag, withServeOptions, withServeOverrides, type ServeArgs } from './shared-options';

export interface StartArgs extends ServeArgs {
  entry: string;
  /** `--workers N|auto`: N processes on one port through node:cluster (default: TESSERA_WORKERS, then one process). */
  workers?: string | string[];
  /** Set by `tessera dev` on the child it restarts; not for direct use. */
  dev?: boolean;
}

export const startCommand: CommandModule<object, StartArgs> = {
  command: 'start <entry>',
  describe: 'Start the production server of an entry module',
  builder: (yargs) =>
    withServeOptions(yargs)
      .option('workers', {
        type: 'string',
        requiresArg: true,
        describe: 'Processes serving the port through node:cluster: a number, or auto for one per core (default: TESSERA_WORKERS, then 1, no cluster)',
      })
      .option('dev', { type: 'boolean', hidden: true }),
  handler: async (argv) => {
    try {
      await startServer(argv);
    } catch (error) {
      exitWithError(error);
    }
  },
};

/**
 * Resolves the port, loads the entry, creates the application and starts listening. With workers, the
 * primary forks them (each runs this same command as a cluster worker) and returns null.
 */
export async function startServer(args: StartArgs): Promise<Server | null> {
  const port = resolvePort({ flag: lastFlag(args.port), env: process.env.PORT, fallback: DEFAULT_PORT });
  const host = lastFlag(args.host);
  const workers = args.dev === true ? null : resolveWorkers({ flag: lastFlag(args.workers), env: process.env.TESSERA_WORKERS });
  const { options } = await loadEntry(args.entry);
  if (workers !== null && cluster.isPrimary) {
    await checkDatabasesOnce(options);
    await runPrimary({ workers, port, host, services: primaryServices(options) });
    return null;
  }
  const serverOptions = withServeOverrides(options, args);
  if (args.dev !== true) return serve(serverOptions, { port, host });

  const server = await serve(withDevDefaults(serverOptions), { port, host });
  reportSourceFiles();
  exitWithSupervisor();
  return server;
}
