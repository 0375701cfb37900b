#!/usr/bin/env node
// The tessera command line: commander wiring only (no dependencies of its own, issue 28); each command lives in
// bin/commands/.
import { Command } from 'commander';
import { tesseraPackage } from '../runtime/package-info';
import { addBuildCommand } from './commands/build';
import { addDevCommand } from './commands/dev';
import { addInitCommand } from './commands/init';
import { addStartCommand } from './commands/start';

const program = new Command('tessera')
  .version(tesseraPackage().version)
  // Each command as it is typed (`tessera start <entry> [options]`), in the list of commands and in its own usage.
  .configureHelp({ subcommandTerm: (command) => `tessera ${command.name()} ${command.usage()}` });
for (const add of [addInitCommand, addDevCommand, addStartCommand, addBuildCommand]) add(program);
void program.parseAsync();
