// Choosing the handlers (CONTRACT §5): what createServer says about a `compilation` that does not fit,
// and what generated code may load when it runs in-process.
import { createServer, SetupError } from 'tessera';
import { instantiateModule } from '../../../runtime/handlers/load-compiled';
import { useServerTestbed } from '../../helpers/server-testbed';

describe('createServer with a compilation', () => {
  const testbed = useServerTestbed();

  it('refuses an object that is not what tessera build emits', () => {
    expect(() => createServer({ services: [testbed.service.shop], compilation: {} as never })).toThrow(
      new SetupError('compilation must be the object `tessera build` emits (compilation.js)'),
    );
  });

  it('refuses a compilation without the module of a mounted resource, naming the resource', () => {
    expect(() => createServer({ services: [testbed.service.shop], compilation: { handlers: {} } })).toThrow(
      /^compilation has no module for shop\.\w+: run tessera build again$/,
    );
  });
});

describe('instantiateModule', () => {
  it('lets generated code load ajv runtime helpers and nothing else', () => {
    const factory = instantiateModule("const equal = require('ajv/dist/runtime/equal');\nmodule.exports = function createHandler() { return equal; };");
    expect(typeof factory).toBe('function');
    expect(() => instantiateModule("require('node:fs');\nmodule.exports = function createHandler() {};")).toThrow(
      new SetupError('generated code may not require "node:fs"'),
    );
  });

  it('refuses a module that does not export createHandler', () => {
    expect(() => instantiateModule('module.exports = 42;')).toThrow(new SetupError('a generated handler module must export createHandler'));
  });
});
