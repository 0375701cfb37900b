// The safe code builder: what a user's string can and cannot become in generated code.
import { code, comment, literal, name, property, propertyKey } from '../../generator/code/code';
import { BuildError } from '../../generator/errors';

describe('the code builder', () => {
  it('turns every plain string into a quoted literal, so it can never become code', () => {
    const hostile = "'); process.exit(1); ('";
    const source = code`const title = ${hostile};`.toString();
    expect(source).toBe("const title = '\\'); process.exit(1); (\\'';");
    expect(new Function(`${source} return title;`)()).toBe(hostile);
  });

  it('escapes line and paragraph separators, which end a line in older JavaScript parsers', () => {
    expect(literal('a\u2028b\u2029c').toString()).toBe("'a\\u2028b\\u2029c'");
  });

  it('writes numbers, booleans, null and objects as JSON', () => {
    expect(code`f(${20}, ${true}, ${null}, ${literal({ a: [1, 'x'] })})`.toString()).toBe('f(20, true, null, {"a":[1,"x"]})');
  });

  it('refuses a name that is not an identifier', () => {
    expect(name('listNotes').toString()).toBe('listNotes');
    expect(() => name('list notes')).toThrow(BuildError);
    expect(() => name('a;b')).toThrow(BuildError);
    expect(() => name('1st')).toThrow(BuildError);
  });

  it('reads properties with a dot when the key is an identifier, with a quoted literal otherwise', () => {
    expect(property(code`row`, 'createdAt').toString()).toBe('row.createdAt');
    expect(property(code`row`, "x'] + evil + ['").toString()).toBe("row['x\\'] + evil + [\\'']");
    expect(propertyKey('title').toString()).toBe('title');
    expect(propertyKey('two words').toString()).toBe("'two words'");
  });

  it('keeps a comment on one line, so its text cannot spill into code', () => {
    expect(comment('first\nprocess.exit(1)').toString()).toBe('// first process.exit(1)');
  });
});
