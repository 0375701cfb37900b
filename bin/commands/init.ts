// `tessera init [dir]`: a new project that serves a working API after `npm install && npm run dev`, and says which
// `tessera-api` it depends on (the registry's version, or the tarball or folder this tessera runs from).
import type { Command } from 'commander';
import { exitWithError } from '../exit-with-error';
import { scaffold } from '../init/scaffold';

export function addInitCommand(program: Command): void {
  program
    .command('init')
    .description('Create a project in a new or empty folder: one SQLite table, one resource, ready for npm install && npm run dev')
    .argument('[dir]', 'Folder to create the project in (default: the current folder)')
    .usage('[dir]')
    .allowExcessArguments(false)
    .action((dirArgument: string | undefined) => {
      try {
        const dir = dirArgument ?? '.';
        const report = scaffold(dir);
        // A folder with spaces or shell characters is quoted, so that the line can be pasted as it is.
        const cd = dir === '.' ? [] : [`  cd ${/^[\w./@+-]+$/.test(dir) ? dir : `'${dir.replace(/'/g, `'\\''`)}'`}`];
        const lines = [`tessera init: ${dir}: ${report.files.join(', ')}`, `tessera-api: ${report.dependency.description}`];
        process.stdout.write([...lines, 'Next:', ...cd, '  npm install', '  npm run dev', ''].join('\n'));
      } catch (error) {
        exitWithError(error);
      }
    });
}
