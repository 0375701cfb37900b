// Source templates: slots are filled only with Code, and a template and its slots must agree exactly.
import { code } from '../../generator/code/code';
import { fillTemplate } from '../../generator/code/template';
import { BuildError } from '../../generator/errors';

const slots = { header: code`// h`, validation: code`// v`, helpers: code`// helpers`, setup: code`const a = 1;`, handler: code`return null;` };

describe('fillTemplate', () => {
  it('fills every slot of the handler template', () => {
    const text = fillTemplate('handler.js.tpl', slots).toString();
    expect(text).toContain('module.exports = function createHandler(deps)');
    expect(text).not.toMatch(/\{\{\w+\}\}/);
  });

  it('refuses a slot left without code', () => {
    const { setup: _left, ...missing } = slots;
    expect(() => fillTemplate('handler.js.tpl', missing)).toThrow(new BuildError('template handler.js.tpl: slot {{setup}} has no code'));
  });

  it('refuses a value for a slot the template does not have', () => {
    expect(() => fillTemplate('handler.js.tpl', { ...slots, footer: code`x` })).toThrow(new BuildError('template handler.js.tpl has no slot {{footer}}'));
  });

  it('refuses a plain string where code belongs', () => {
    expect(() => fillTemplate('handler.js.tpl', { ...slots, setup: 'const a = 1;' as never })).toThrow(BuildError);
  });
});
