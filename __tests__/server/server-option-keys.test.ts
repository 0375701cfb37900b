// Unknown server option keys are never ignored in silence (issue 31): createServer throws a SetupError naming the
// key and the option it resembles, and docs/server-options.md lists exactly the keys createServer takes. The plain
// options' values are checked for their type.
import fs from 'node:fs';
import path from 'node:path';
import { createServer, SetupError } from 'tessera-api';
import { checkServerOptionTypes, SERVER_OPTION_KEYS } from '../../runtime/server/server-option-keys';

describe('createServer option keys', () => {
  it.each([
    [{ titel: 'Notes' }, 'titel is not a server option (did you mean title?)'],
    [{ Prefix: '/v1' }, 'Prefix is not a server option (did you mean prefix?)'],
    [{ bodylimit: '2kb' }, 'bodylimit is not a server option (did you mean bodyLimit?)'],
    [{ contxt: () => ({}) }, 'contxt is not a server option (did you mean context?)'],
    [{ helmet: true }, 'helmet is not a server option (see docs/server-options.md)'],
  ])('throws a SetupError naming %j and what it resembles', (options, message) => {
    expect(() => createServer(options as never)).toThrow(new SetupError(message));
  });

  // `tessera start` runs an options module without a type check: a value of the wrong type must not pass unseen.
  it.each([
    [{ title: 42 }, 'title must be a string, got 42'],
    [{ description: null }, 'description must be a string, got null'],
    [{ docs: 'yes' }, 'docs must be true or false, got "yes"'],
    [{ compiler: 'no' }, 'compiler must be true or false, got "no"'],
    [{ bodyLimit: 'abc' }, 'bodyLimit must be a number of bytes or a size such as \'1mb\', got "abc"'],
    [{ bodyLimit: -1 }, 'bodyLimit must be a number of bytes or a size such as \'1mb\', got -1'],
  ])('throws a SetupError for the option of the wrong type in %j', (options, message) => {
    expect(() => createServer(options as never)).toThrow(new SetupError(message));
  });

  it('takes the plain options of the right types', () => {
    for (const options of [{ title: 'Notes', version: '2.0.0', docs: false, compiler: true, statementCache: false }, { bodyLimit: 2048 }, { bodyLimit: '2mb' }, { bodyLimit: '500 kb' }]) {
      expect(() => checkServerOptionTypes(options)).not.toThrow();
    }
  });

  it('refuses anything but an object of options', () => {
    expect(() => createServer('Notes' as never)).toThrow(new SetupError('createServer takes an object of server options'));
  });

  it('is documented option by option in docs/server-options.md', () => {
    const page = fs.readFileSync(path.resolve(__dirname, '../../docs/server-options.md'), 'utf8');
    const table = page.slice(page.indexOf('| Option |'), page.indexOf('\n\n', page.indexOf('| Option |')));
    const documented = table
      .split('\n')
      .slice(2)
      .flatMap((row) => [...row.split('|')[1].matchAll(/`(\w+)`/g)].map((match) => match[1]));
    expect(documented.sort()).toEqual(Object.keys(SERVER_OPTION_KEYS).sort());
  });
});
