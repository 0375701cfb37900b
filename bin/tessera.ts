// The tessera command line: yargs wiring only; each command lives in bin/commands/.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { startCommand } from './commands/start';

void yargs(hideBin(process.argv))
  .scriptName('tessera')
  .command(startCommand)
  .strict()
  .demandCommand(1)
  .help()
  .parse();
