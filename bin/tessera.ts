#!/usr/bin/env node
// The tessera command line: yargs wiring only; each command lives in bin/commands/.
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { tesseraPackage } from '../runtime/package-info';
import { buildCommand } from './commands/build';
import { devCommand } from './commands/dev';
import { initCommand } from './commands/init';
import { startCommand } from './commands/start';

void yargs(hideBin(process.argv))
  .scriptName('tessera')
  .command(initCommand)
  .command(devCommand)
  .command(startCommand)
  .command(buildCommand)
  .version(tesseraPackage().version)
  .strict()
  .demandCommand(1)
  .help()
  .parse();
