// The arguments start, dev and build share: the entry positional and a port validated by spec §8.1's
// rules in bin/port.ts (a string for yargs, so our validator, not yargs, judges it).
import type { Argv } from 'yargs';

export function withEntryAndPort<T>(yargs: Argv<T>, portDescription: string) {
  return yargs
    .positional('entry', {
      type: 'string',
      demandOption: true,
      describe: 'Module that defines the services and may default-export the server options',
    })
    .option('port', { type: 'string', describe: portDescription });
}

/** The options of the commands that serve (start, dev). */
export interface ServeArgs {
  port?: string | string[];
  host?: string | string[];
  /** `--no-compiler` serves every route with the generic handler. */
  compiler?: boolean;
}

/** `--host` and `--no-compiler`, beside the entry and the port. */
export function withServeOptions<T>(yargs: Argv<T>) {
  return withEntryAndPort(yargs, `Port to listen on, 1 to 65535 (default: PORT, then 4000)`)
    .option('host', { type: 'string', requiresArg: true, describe: 'Interface to listen on, such as 127.0.0.1 (default: all interfaces)' })
    .option('compiler', { type: 'boolean', describe: 'Generate a specialized handler per route at start; --no-compiler uses the generic handler (default: true)' });
}

/** What the serve options change in the entry's server options: `--no-compiler` wins over the entry's `compiler`. */
export function withServeOverrides(options: Record<string, unknown>, args: ServeArgs): Record<string, unknown> {
  return args.compiler === false ? { ...options, compiler: false } : options;
}

/** yargs gives an array when a flag is repeated; the last one wins, as in most CLIs. */
export function lastFlag(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[value.length - 1] : value;
}
