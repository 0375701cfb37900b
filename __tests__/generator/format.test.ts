// The one formatter of generated files: indentation by bracket depth, blank lines collapsed, LF, final newline.
import { formatSource } from '../../generator/code/format';

describe('formatSource', () => {
  it('indents by bracket depth with two spaces', () => {
    expect(formatSource('function f(a) {\nif (a) {\nreturn [\n1,\n];\n}\n}')).toBe('function f(a) {\n  if (a) {\n    return [\n      1,\n    ];\n  }\n}\n');
  });

  it('ignores brackets inside strings, template literals and line comments', () => {
    expect(formatSource("const a = '{[(';\nconst b = `)}`;\n// {\nconst c = \"\\\"{\";\nx();")).toBe(
      "const a = '{[(';\nconst b = `)}`;\n// {\nconst c = \"\\\"{\";\nx();\n",
    );
  });

  it('keeps at most one blank line, trims trailing spaces and ends with one newline', () => {
    expect(formatSource('a();   \n\n\n\nb();\n\n\n')).toBe('a();\n\nb();\n');
  });

  it('is stable: formatting formatted text changes nothing', () => {
    const once = formatSource('x({\na: [\n1,\n],\n});');
    expect(formatSource(once)).toBe(once);
  });
});

describe('formatSource with several brackets opened on one line', () => {
  it('indents the body once, as Prettier does, and closes back to the opening line', () => {
    expect(formatSource('foo({\na: 1,\n});\nbar();')).toBe('foo({\n  a: 1,\n});\nbar();\n');
    expect(formatSource('const x = [{\nid: 1,\n}, {\nid: 2,\n}];')).toBe('const x = [{\n  id: 1,\n}, {\n  id: 2,\n}];\n');
  });

  it('puts `} else {` on the outer level, and a line closing two levels on the outer one', () => {
    expect(formatSource('function f() {\nif (a) {\nb();\n} else {\nc();\n}}\nd();')).toBe(
      'function f() {\n  if (a) {\n    b();\n  } else {\n    c();\n}}\nd();\n',
    );
  });
});
