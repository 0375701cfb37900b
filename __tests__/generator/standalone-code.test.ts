// ajv's standalone code as generated modules hold it: every helper it needs (string length, deep equality, formats)
// comes from tessera-api/validation-runtime, never from a path into ajv's folder, which pnpm's strict layout hides.
import { BuildError } from '../../generator/errors';
import { portableRequires, standaloneModuleCode } from '../../generator/emit/standalone-code';
import { createAjv } from '../../runtime/validation';
import * as validationRuntime from '../../runtime/validation-runtime';

/** A schema whose validator needs ucs2length (maxLength), equal (uniqueItems) and a format checked by a function. */
const SCHEMA = {
  type: 'object',
  properties: {
    title: { type: 'string', maxLength: 3 },
    tags: { type: 'array', uniqueItems: true, items: { type: 'object' } },
    at: { type: 'string', format: 'date-time' },
  },
  additionalProperties: false,
};

/** Runs a module's text as Node would, its one package require answered by the validation runtime. */
function runModule(source: string): (data: unknown) => boolean {
  const module = { exports: {} as unknown };
  const requireRuntime = (id: string): unknown => {
    if (id !== 'tessera-api/validation-runtime') throw new Error(`unexpected require ${id}`);
    return validationRuntime;
  };
  new Function('module', 'exports', 'require', source)(module, module.exports, requireRuntime);
  return module.exports as (data: unknown) => boolean;
}

describe('standaloneModuleCode', () => {
  it("requires ajv's helpers and formats from tessera-api/validation-runtime only", () => {
    const ajv = createAjv({ standalone: true });
    const source = standaloneModuleCode(ajv, ajv.compile(SCHEMA));
    const required = [...source.matchAll(/require\("([^"]*)"\)/g)].map((match) => match[1]);
    expect(required.length).toBeGreaterThanOrEqual(3);
    expect(new Set(required)).toEqual(new Set(['tessera-api/validation-runtime']));
    expect(source).toContain('require("tessera-api/validation-runtime").ucs2length.default');
    expect(source).toContain('require("tessera-api/validation-runtime").equal.default');
    expect(source).toContain('require("tessera-api/validation-runtime").fullFormats');
    expect(source).not.toContain('ajv/dist');
  });

  it('validates as ajv does: string length in code points, deep equality, formats', () => {
    const ajv = createAjv({ standalone: true });
    const validate = runModule(standaloneModuleCode(ajv, ajv.compile(SCHEMA)));
    expect(validate({ title: '😀😀😀' })).toBe(true); // three code points, six UTF-16 units
    expect(validate({ title: 'four' })).toBe(false);
    expect(validate({ tags: [{ a: 1 }, { a: 1 }] })).toBe(false);
    expect(validate({ tags: [{ a: 1 }, { a: 2 }] })).toBe(true);
    expect(validate({ at: '2026-02-30T10:00:00Z' })).toBe(false);
    expect(validate({ at: '2026-02-28T10:00:00Z' })).toBe(true);
  });
});

describe('portableRequires', () => {
  it('leaves a string that only reads like a require alone (ajv escapes its quotes)', () => {
    const text = 'const message = "use require(\\"ajv/dist/runtime/re2\\")";';
    expect(portableRequires(text)).toBe(text);
  });

  it('refuses a helper the validation runtime does not provide, naming it', () => {
    expect(() => portableRequires('const re2 = require("ajv/dist/runtime/re2").default;')).toThrow(
      new BuildError('ajv\'s standalone code requires "ajv/dist/runtime/re2", which tessera-api/validation-runtime does not provide'),
    );
  });
});
