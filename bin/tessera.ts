// The tessera command line: yargs wiring only; each command lives in bin/commands/.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { buildCommand } from './commands/build';
import { devCommand } from './commands/dev';
import { startCommand } from './commands/start';

void yargs(hideBin(process.argv))
  .scriptName('tessera')
  .command(devCommand)
  .command(startCommand)
  .command(buildCommand)
  .strict()
  .demandCommand(1)
  .help()
  .parse();
