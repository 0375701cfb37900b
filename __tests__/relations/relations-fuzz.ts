// fast-check arbitraries of hostile relation inputs for the relations suite's application: include trees and where
// trees that mix fields, relations, relation filters and nesting past every limit, with JavaScript's trap keys.
import fc from 'fast-check';

const RELATIONS = ['author', 'comments', 'posts', 'post', 'editor', '__proto__', 'constructor', ''];
const FIELDS = ['id', 'title', 'authorId', 'hidden', 'name', 'email', 'active', 'secretNote', 'body', 'rating', 'postId', 'nope', '__proto__', 'toString'];
const OPERATORS = ['eq', 'ne', 'in', 'contains', 'gte', 'lte', 'isNull', 'is', 'isNot', 'some', 'every', 'none', 'nope', '__proto__'];
const RELATION_FILTERS = ['is', 'isNot', 'some', 'every', 'none', 'eq', '__proto__'];

const scalar = fc.oneof(fc.string({ maxLength: 8 }), fc.integer({ min: -2, max: 12 }), fc.boolean(), fc.constant(null), fc.constantFrom('%', '_', "' OR 1=1 --", 'Ann'));
const value = fc.oneof({ weight: 4, arbitrary: scalar }, { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) });

/** JSON text of an object from entries, keeping duplicate and `__proto__` keys. */
function objectText(entries: readonly (readonly [string, string])[]): string {
  return `{${entries.map(([key, json]) => `${JSON.stringify(key)}:${json}`).join(',')}}`;
}
const json = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map((item) => JSON.stringify(item) ?? 'null');
const entries = (keys: readonly string[], values: fc.Arbitrary<string>, maxLength = 3) => fc.array(fc.tuple(fc.constantFrom(...keys), values), { maxLength }).map((pairs) => objectText(pairs));

/** A where with field conditions, relation filters (their inner wheres nested) and AND / OR / NOT. */
export function whereText(depth: number): fc.Arbitrary<string> {
  const condition = entries(OPERATORS, json(value));
  if (depth === 0) return entries([...FIELDS, ...RELATIONS], condition);
  const inner = whereText(depth - 1);
  const relationFilter = entries(RELATION_FILTERS, fc.oneof(inner, json(value)), 2);
  const nested = fc.oneof(inner, fc.array(inner, { maxLength: 2 }).map((items) => `[${items.join(',')}]`));
  return fc.oneof(
    entries([...FIELDS, ...RELATIONS], fc.oneof(condition, relationFilter)),
    entries(['AND', 'OR', 'NOT'], nested, 2),
  );
}

/** An include tree, nesting up to `depth` (the limit is 3). */
export function includeText(depth: number): fc.Arbitrary<string> {
  const options = (child: fc.Arbitrary<string>) =>
    entries(
      ['select', 'where', 'orderBy', 'limit', 'include', 'nope'],
      fc.oneof(
        json(fc.array(fc.constantFrom(...FIELDS), { maxLength: 3 })),
        whereText(1),
        json(fc.array(fc.record({ field: fc.constantFrom(...FIELDS), direction: fc.constantFrom('asc', 'desc', 'up') }), { maxLength: 2 })),
        json(fc.integer({ min: -1, max: 12 })),
        child,
      ),
    );
  const child = depth === 0 ? json(value) : includeText(depth - 1);
  return entries(RELATIONS, fc.oneof(json(fc.constantFrom(true, false, 1, null)), options(child)), 3);
}

/** A request to the relations app: a read with includes and relation filters, as JSON text. */
export const relationRequest = fc.record({
  resource: fc.constantFrom('posts', 'authors', 'comments'),
  action: fc.constantFrom('query', 'find-one', 'count', 'exists'),
  admin: fc.boolean(),
  body: entries(['where', 'include', 'select', 'limit'], fc.oneof(whereText(3), includeText(4), json(fc.array(fc.constantFrom(...FIELDS), { maxLength: 2 })), json(value)), 3),
});
