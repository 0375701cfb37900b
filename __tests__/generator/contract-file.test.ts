// contract.json as written: a resource's definitions lifted into the document's `$defs` once, every reference
// pointing at them, and a custom action's schemas left whole.
import { buildContract, type Contract } from '../../generator/emit/contract';
import { contractFile } from '../../generator/emit/contract-file';
import { clearRegistry, defineService, listServices } from '../../runtime';

/** Every `$ref` string anywhere in `value`. */
function refsIn(value: unknown): string[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) => (key === '$ref' && typeof item === 'string' ? [item] : refsIn(item)));
}

describe('contractFile', () => {
  let contract: Contract;
  beforeAll(() => {
    clearRegistry();
    require('../../fixtures/blog/app');
    const shop = defineService({ name: 'shop', db: listServices()[0].db });
    const item = { type: 'object', properties: { text: { type: 'string' } } };
    shop.action('echo', { input: { type: 'object', properties: { item: { $ref: '#/$defs/Item' } }, $defs: { Item: item } }, handler: ({ input }) => input });
    contract = buildContract({ services: listServices(), prefix: '/api', title: 'Blog', version: '1.0.0' });
  });
  afterAll(() => clearRegistry());

  it('writes each definition of a resource once, under its resource, and points every crud reference at it', () => {
    const file = contractFile(contract);
    const list = contract.actions.find((action) => action.name === 'notes.list')!;
    const count = contract.actions.find((action) => action.name === 'notes.count')!;
    // The where grammar is in list, findOne, count and exists: written once.
    expect(Object.keys(list.input.$defs as object)).toContain('Where');
    expect(file.$defs['blog.notes.Where']).toBeDefined();
    // A relation's operand is the related resource's where, written with the resource whose schemas point at it (CONTRACT §9).
    const wheres = ['blog.notes.Where', 'blog.tasks.Where', 'blog.tasks.Related.blog.users.Where', 'blog.users.Where', 'blog.users.Related.blog.tasks.Where'];
    expect(Object.keys(file.$defs).filter((def) => def.endsWith('.Where'))).toEqual(wheres);
    for (const action of file.actions.filter((action) => action.name.includes('.'))) {
      expect([action.input.$defs, action.output.$defs]).toEqual([undefined, undefined]);
    }
    const fileCount = file.actions.find((action) => action.name === 'notes.count')!;
    expect(fileCount.input).toEqual({ ...count.input, $defs: undefined, properties: { where: { $ref: '#/$defs/blog.notes.Where' } } });
    for (const ref of refsIn([file.actions.filter((action) => action.name.includes('.')), file.$defs])) {
      expect(Object.keys(file.$defs)).toContain(decodeURIComponent(ref.slice('#/$defs/'.length)));
    }
  });

  it('keeps a custom action\'s schemas as declared, their references relative to themselves', () => {
    const echo = contractFile(contract).actions.find((action) => action.name === 'echo')!;
    expect(echo.input).toEqual(contract.actions.find((action) => action.name === 'echo')!.input);
    expect(refsIn(echo.input)).toEqual(['#/$defs/Item']);
  });
});
