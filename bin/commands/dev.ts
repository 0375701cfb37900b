// `tessera dev <entry> [--port N] [--host H] [--no-compiler]` (CONTRACT §7): serves the entry like start, with
// request logging and the reference page, and restarts it whenever a source file it loaded changes.
import fs from 'node:fs';
import path from 'node:path';
import type { CommandModule } from 'yargs';
import { superviseDev } from '../dev/supervisor';
import { exitWithError } from '../exit-with-error';
import { EntryError } from '../load-entry';
import { DEFAULT_PORT, resolvePort } from '../port';
import { lastFlag, withServeOptions, type ServeArgs } from './shared-options';

export interface DevArgs extends ServeArgs {
  entry: string;
}

export const devCommand: CommandModule<object, DevArgs> = {
  command: 'dev <entry>',
  describe: 'Serve an entry module for development: request log, reference page, restart on change',
  builder: (yargs) => withServeOptions(yargs),
  handler: (argv) => {
    try {
      // spec §8.1, checked once here: every restarted child gets the same valid port.
      const port = resolvePort({ flag: lastFlag(argv.port), env: process.env.PORT, fallback: DEFAULT_PORT });
      // A missing entry has nothing to watch: fail now, as start does, rather than wait for it.
      if (!fs.existsSync(path.resolve(process.cwd(), argv.entry))) throw new EntryError(`entry not found: ${argv.entry}`);
      superviseDev({ entry: argv.entry, port, host: lastFlag(argv.host), compiler: argv.compiler });
    } catch (error) {
      exitWithError(error);
    }
  },
};
