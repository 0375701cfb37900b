// Where a setup error's key is written (issue 31): the CLI points at `fields.titel` in the application's file, not at
// the `.use(` call that threw. The scanner reads keys through nesting, calls, variables, comments and strings.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { locateKey, setupErrorKeyPath } from '../../bin/source-keys';

let folder: string;
beforeAll(() => (folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-source-keys-'))));
afterAll(() => fs.rmSync(folder, { recursive: true, force: true }));

/** Writes `text` to a file and locates `keyPath` in it; `near` is a `line:column` or a pattern. */
function locate(text: string, keyPath: string[], near?: { line: number; column: number } | RegExp): string | undefined {
  const file = path.join(folder, `app-${Math.random().toString(36).slice(2)}.ts`);
  fs.writeFileSync(file, text);
  const found = locateKey(file, keyPath, near);
  return found === undefined ? undefined : `${found.line}:${found.column}`;
}

const NOTES = `export const notesResource = api.resource({ name: 'notes', table: notes, id: notes.id }).use(
  crud({
    access: 'public', // fields: { titel } in a comment is not a key
    fields: {
      id: { read: true, filter: ['eq'] },
      'titel': { read: true, description: \`fields: { titel: \${"x"} }\` },
    },
  }),
);
const other = { fields: { titel: true } };
`;

describe('locateKey', () => {
  it('finds a nested key inside the call a stack frame points at, past comments and strings', () => {
    expect(locate(NOTES, ['fields', 'titel'], { line: 1, column: 90 })).toBe('6:7');
  });

  it('finds the key inside the brackets after the given position, and nowhere when two keys of that path could be meant', () => {
    expect(locate(NOTES, ['fields', 'titel'], { line: 10, column: 1 })).toBe('10:27');
    expect(locate(NOTES, ['fields', 'titel'])).toBeUndefined();
  });

  it('follows a variable that holds the options, and a call around an object', () => {
    const text = `const fields = {\n  id: { read: true },\n  titel: Object.freeze({ read: true }),\n};\nresource.use(crud({ access: 'public', fields }));\n`;
    expect(locate(text, ['fields', 'titel'], { line: 5, column: 10 })).toBe('3:3');
    const wrapped = `resource.use(crud(withDefaults({ fields: { body: { read: true } } })));\n`;
    expect(locate(wrapped, ['fields', 'body'], { line: 1, column: 10 })).toBe('1:44');
  });

  it('does not take a ternary branch, a spread or a type annotation for a key', () => {
    const text = `const options = { title: isProd ? titel : 'x', ...titel };\nfunction f(titel: string) {}\n`;
    expect(locate(text, ['titel'])).toBeUndefined();
  });

  it('looks after `export default` first for a server option', () => {
    const text = `const local = { titel: 1 };\nexport default {\n  title: 'Notes',\n  titel: 'Notes',\n} satisfies ServerOptions;\n`;
    expect(locate(text, ['titel'], /export\s+default\b/)).toBe('4:3');
  });

  it('answers undefined for a file it cannot read', () => {
    expect(locateKey(path.join(folder, 'missing.ts'), ['titel'])).toBeUndefined();
  });
});

describe('setupErrorKeyPath', () => {
  it.each([
    ['api.notes: fields.titel is not a column of table "notes"', ['fields', 'titel']],
    ['api.notes: pageSize is not a crud option', ['pageSize']],
    ['api.notes: fields.title.filter: "foo" is not a filter operator', ['fields', 'title', 'filter']],
    ['api.notes: defaultLimit (50) is above maxLimit (20)', ['defaultLimit']],
    ['titel is not a server option (did you mean title?)', ['titel']],
    ['dashboard.port must be an integer from 0 to 65535', ['dashboard', 'port']],
    ['api.notes: a resource takes one crud plugin', undefined],
  ])('reads %j', (message, keyPath) => {
    expect(setupErrorKeyPath(message)).toEqual(keyPath);
  });
});
