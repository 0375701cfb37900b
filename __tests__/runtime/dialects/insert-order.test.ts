// The keys of a multi-row INSERT in input order (insert-order.ts): the keys rows carry, else the database's numbers sorted.
import { keysInInputOrder } from '../../../runtime/dialects/insert-order';

describe('keysInInputOrder', () => {
  it('answers the keys the rows carry, whatever RETURNING answered', () => {
    expect(keysInInputOrder([{ code: 'b' }, { code: 'a' }], 'code', [])).toEqual(['b', 'a']);
  });

  it('sorts the numbers the database gave (RETURNING promises no order), as numbers, bigints or decimal text', () => {
    expect(keysInInputOrder([{}, {}, {}], 'id', [10, 9, 100])).toEqual([9, 10, 100]);
    expect(keysInInputOrder([{}, {}], 'id', [2n ** 63n - 1n, 2n ** 62n])).toEqual([2n ** 62n, 2n ** 63n - 1n]);
    expect(keysInInputOrder([{}, {}], 'id', ['9007199254740993', '9007199254740992'])).toEqual(['9007199254740992', '9007199254740993']);
  });

  it('refuses when the database did not say every key', () => {
    expect(() => keysInInputOrder([{}, {}], 'id', [1])).toThrow(/keys of 2 inserted rows are unknown/);
    expect(() => keysInInputOrder([{}, {}], 'id', [1, undefined])).toThrow(/unknown/);
  });
});
