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

/** yargs gives an array when a flag is repeated; the last one wins, as in most CLIs. */
export function lastFlag(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[value.length - 1] : value;
}
