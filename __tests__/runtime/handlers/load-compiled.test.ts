// Choosing the handlers (CONTRACT §5): what createServer says about a `compilation` that does not fit,
// and what generated code may load when it runs in-process.
import { createServer, SetupError, type Compilation } from 'tessera-api';
import { generateCompilation } from '../../../generator/compile';
import { instantiateCompilation, instantiateModule } from '../../../runtime/handlers/load-compiled';
import { collectRoutes } from '../../../runtime/model/action-routes';
import equalHelper from 'ajv/dist/runtime/equal';
import { request } from '../../helpers/request';
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

describe('a compilation\'s validators', () => {
  const testbed = useServerTestbed();

  /** The compilation as compilation.js builds it, each resource's validators getter counting its reads. */
  function countingCompilation(): { compilation: Compilation; reads: Map<string, number> } {
    const { modules, compilation: text } = generateCompilation(collectRoutes([testbed.service.shop], '/api'));
    const compilation = instantiateCompilation(modules, text);
    const reads = new Map<string, number>();
    const resources = Object.fromEntries(
      Object.entries(compilation.resources!).map(([label, resource]) => [
        label,
        {
          fingerprint: resource.fingerprint,
          get validators() {
            reads.set(label, (reads.get(label) ?? 0) + 1);
            return resource.validators;
          },
        },
      ]),
    );
    return { compilation: { ...compilation, resources }, reads };
  }

  it('load when a resource first validates an input, not when the server starts', async () => {
    const { compilation, reads } = countingCompilation();
    const server = await testbed.start({ services: [testbed.service.shop], compilation });
    expect(reads).toEqual(new Map());
    const refused = await request(`${server.url}/api/notes/query`, { method: 'POST', body: { where: { nope: { eq: 1 } } } });
    expect(refused.status).toBe(400);
    expect([...reads.keys()]).toEqual(['shop.notes']);
    expect((await request(`${server.url}/api/notes/query`, { method: 'POST', body: {} })).status).toBe(200);
    expect((await request(`${server.url}/api/notes/count`, { method: 'POST', body: {} })).status).toBe(200);
    // Read once per action: its validator is kept from then on.
    expect(reads.get('shop.notes')).toBe(2);
  });
});

describe('instantiateModule', () => {
  it("lets generated code load ajv's runtime helpers through tessera-api/validation-runtime and nothing else", () => {
    const factory = instantiateModule("const { equal } = require('tessera-api/validation-runtime');\nmodule.exports = function createHandler() { return equal.default; };");
    expect(factory({} as never)).toBe(equalHelper);
    for (const id of ['node:fs', 'ajv/dist/runtime/equal', 'ajv-formats/dist/formats']) {
      expect(() => instantiateModule(`require('${id}');\nmodule.exports = function createHandler() {};`)).toThrow(new SetupError(`generated code may not require "${id}"`));
    }
  });

  it('refuses a module that does not export createHandler', () => {
    expect(() => instantiateModule('module.exports = 42;')).toThrow(new SetupError('a generated handler module must export createHandler'));
  });
});
