// The fuzz's leak check (leaks.ts) catches what it is there for, and lets an echo of the request's own text pass.
import { leakIn } from './leaks';

describe('leakIn', () => {
  it.each([
    ['SQL text', '{"error":{"code":"INTERNAL_ERROR","message":"select `id`, `title` from `t_notes` where 1"}}'],
    ['a table name', '{"error":{"message":"no such table: t_items"}}'],
    ['a column name', '{"error":{"message":"Column owner_id cannot be null"}}'],
    ['a driver error', '{"error":{"message":"ER_DUP_ENTRY"}}'],
    ['a stack frame or source path', '{"error":{"message":"TypeError: x\\n    at handle (/work/runtime/crud/actions.ts:12:3)"}}'],
    ['the hidden field name', '{"items":[{"id":"1","internal":"x"}]}'],
  ])('finds %s in an answer the request did not carry', (what, answer) => {
    expect(leakIn(answer, 'POST /api/notes/query {}')).toMatch(new RegExp(`^${what} leaked`));
  });

  it('lets an error quote what the request itself sent', () => {
    expect(leakIn('{"error":{"message":"field `internal` is not writable"}}', 'POST /api/notes {"internal":1}')).toBeNull();
    expect(leakIn('{"items":[]}', 'POST /api/notes/query {}')).toBeNull();
  });
});
