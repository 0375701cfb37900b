// `tessera dev <entry> [--port N] [--host H] [--no-compiler]` (CONTRACT §7): serves the entry like start, with
// request logging and the reference page, and restarts it whenever a source file it loaded changes.
import fs from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { superviseDev } from '../dev/supervisor';
import { exitWithError } from '../exit-with-error';
import { EntryError } from '../load-entry';
import { DEFAULT_PORT, resolvePort } from '../port';
import { commandWithEntry, flagValue, withServeOptions, type ServeArgs } from './shared-options';

export function addDevCommand(program: Command): void {
  withServeOptions(commandWithEntry(program, 'dev', 'Serve an entry module for development: request log, reference page, restart on change')).action((entry: string, flags: ServeArgs) => {
    try {
      // spec §8.1, checked once here: every restarted child gets the same valid port.
      const port = resolvePort({ flag: flagValue(flags.port), env: process.env.PORT, fallback: DEFAULT_PORT });
      // A missing entry has nothing to watch: fail now, as start does, rather than wait for it.
      if (!fs.existsSync(path.resolve(process.cwd(), entry))) throw new EntryError(`entry not found: ${entry}`);
      superviseDev({ entry, port, host: flags.host, compiler: flags.compiler });
    } catch (error) {
      exitWithError(error);
    }
  });
}
