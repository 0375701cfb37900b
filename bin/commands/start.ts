// `tessera start <entry> [--port N] [--host H] [--no-compiler]`: loads the entry, builds the server and listens
// (CONTRACT §7). The port follows spec §8.1; every failure is one `tessera: …` line and exit code 1.
import cluster from 'node:cluster';
import type { Server } from 'node:http';
import { Option, type Command } from 'commander';
import { runPrimary } from '../cluster/primary';
import { checkDatabasesOnce } from '../cluster/primary-database-check';
import { primaryServices } from '../cluster/primary-dashboard';
import { prepareDevChild, reportSourceFiles, withDevDefaults } from '../dev/dev-child';
import { exitWithError } from '../exit-with-error';
import { loadEntry } from '../load-entry';
import { DEFAULT_PORT, resolvePort } from '../port';
import { resolveWorkers } from '../workers';
import { serve } from '../serve';
import { commandWithEntry, flagValue, withServeOptions, withServeOverrides, type ServeArgs } from './shared-options';

export interface StartArgs extends ServeArgs {
  entry: string;
  /** `--workers N|auto`: N processes on one port through node:cluster (default: TESSERA_WORKERS, then one process). */
  workers?: string;
  /** Set by `tessera dev` on the child it restarts; not for direct use. */
  dev?: boolean;
}

export function addStartCommand(program: Command): void {
  withServeOptions(commandWithEntry(program, 'start', 'Start the production server of an entry module'))
    .option('--workers <count>', 'Processes serving the port through node:cluster: a number, or auto for one per core (default: TESSERA_WORKERS, then 1, no cluster)')
    .addOption(new Option('--dev').hideHelp())
    .action(async (entry: string, flags: Omit<StartArgs, 'entry'>) => {
      try {
        await startServer({ ...flags, entry });
      } catch (error) {
        exitWithError(error);
      }
    });
}

/**
 * Resolves the port, loads the entry, creates the application and starts listening. With workers, the
 * primary forks them (each runs this same command as a cluster worker) and returns null.
 */
export async function startServer(args: StartArgs): Promise<Server | null> {
  const port = resolvePort({ flag: flagValue(args.port), env: process.env.PORT, fallback: DEFAULT_PORT });
  const host = args.host;
  const workers = args.dev === true ? null : resolveWorkers({ flag: args.workers, env: process.env.TESSERA_WORKERS });
  // A dev child records the ES modules the entry loads, and may stand by until its supervisor says go.
  if (args.dev === true) await prepareDevChild(args.entry);
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
  return server;
}
