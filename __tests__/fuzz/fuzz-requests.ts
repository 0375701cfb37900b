// fast-check arbitraries of hostile HTTP requests to the test service (helpers/test-app.ts): every input
// of every action (where trees, orderBy, select, limits, bodies, ids), every transport oddity (content
// types, malformed JSON and UTF-8, `__proto__` and duplicate keys, huge and deep values, If-Match and If-None-Match),
// and stray routes.
// Bodies are built as JSON text by hand, so keys JSON.stringify would drop or merge reach the server.
import fc from 'fast-check';
import { OPERATOR_NAMES } from 'tessera-api';
import type { HandlerMode } from '../helpers/test-app';
import { conditionalHeaders } from './conditional-headers';

export interface FuzzRequest {
  mode: Exclude<HandlerMode, 'bundle'>;
  method: string;
  /** Sent as is: may hold characters fetch would refuse or re-encode. */
  path: string;
  /** The caller, as the `x-test-user` header (absent, a user, or rejected credentials). */
  user: 'anonymous' | 'alice' | 'bob' | 'bad';
  contentType: string | null;
  body: Buffer | null;
  /** The body is not exact text (invalid UTF-8 or a lone surrogate inside a value): never accepted (issue 32). */
  inexact?: boolean;
  /** Sent to the servers with the default body limit (1 MiB): a request at a documented limit may be large. */
  wide?: boolean;
  /** At a documented limit: answered (`accepted`); one past it: 400 VALIDATION_ERROR (`rejected`). limit-requests.ts. */
  expect?: 'accepted' | 'rejected';
  /** Which limit, for the report. */
  edge?: string;
  /** If-Match / If-None-Match (conditional-headers.ts); may hold ETAG_TOKEN. */
  headers?: Record<string, string>;
}

/** Stand for the seeded notes' ids in paths (uuids known only once seeded); the sender replaces them. */
export const NOTE_ID_TOKENS = ['@note0', '@note1', '@note2'] as const;

/** The fuzz server's body limit: small, so a body above it is cheap to send. */
export const FUZZ_BODY_LIMIT = 16 * 1024;

const RESOURCES = ['notes', 'items', 'categories', 'readings', 'counters', 'nope', 'shop'];
/** Readable, hidden, write-only, scrubbed and unknown fields, and keys that are traps in JavaScript. */
const FIELDS = ['id', 'title', 'content', 'internal', 'name', 'price', 'rating', 'active', 'createdAt', 'ownerId', 'secret', 'email', 'categoryId', 'serial', 'payload', 'nope', '__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'AND', 'OR', 'NOT', ''];
const OPERATORS = [...OPERATOR_NAMES, '__proto__', 'like', 'EQ', 'regex', ''];
const LIST_KEYS = ['select', 'where', 'orderBy', 'limit', 'offset', 'includeTotal', 'cursor', 'nope', '__proto__'];

const awkwardText = fc.constantFrom('%', '_', '\\', '*', '?', '[a-z]', "'", '"', "' OR 1=1 --", '\u0000', '\u2028', '😀', 'é', '\uFFFF', 'NaN', '-0', '1e400', ' ');
const text = fc.oneof(fc.string({ maxLength: 20 }), fc.string({ unit: 'binary', maxLength: 10 }), awkwardText);
const number = fc.oneof(fc.integer(), fc.integer({ min: -2, max: 12 }), fc.double(), fc.constantFrom(2 ** 53, -(2 ** 63), 2 ** 64, 1e308, 0.5));
const scalar = fc.oneof(text, number, fc.boolean(), fc.constant(null), fc.date({ noInvalidDate: true }).map((date) => date.toISOString()), fc.bigInt().map(String));
const value = fc.oneof({ weight: 4, arbitrary: scalar }, { weight: 1, arbitrary: fc.array(scalar, { maxLength: 4 }) }, { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) });

/** JSON text of an object from entries, keeping duplicate and `__proto__` keys. */
function objectText(entries: readonly (readonly [string, string])[]): string {
  return `{${entries.map(([key, json]) => `${JSON.stringify(key)}:${json}`).join(',')}}`;
}

const json = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.map((item) => JSON.stringify(item) ?? 'null');
const entries = (keys: readonly string[], values: fc.Arbitrary<string>, maxLength = 4) =>
  fc.array(fc.tuple(fc.constantFrom(...keys), values), { maxLength }).map((pairs) => objectText(pairs));

/** A where tree, depth-bounded (the limit is 5, so 7 goes past it). */
function whereText(depth: number): fc.Arbitrary<string> {
  const condition = entries(OPERATORS, json(value), 3);
  const leaf = fc.oneof({ weight: 4, arbitrary: condition }, { weight: 1, arbitrary: json(value) });
  if (depth === 0) return entries(FIELDS, leaf, 3);
  const nested = fc.oneof(whereText(depth - 1), fc.array(whereText(depth - 1), { maxLength: 3 }).map((items) => `[${items.join(',')}]`));
  return entries(FIELDS, fc.oneof({ weight: 3, arbitrary: leaf }, { weight: 1, arbitrary: nested }), 3);
}
const where = fc.integer({ min: 0, max: 7 }).chain((depth) => whereText(depth));
const orderBy = fc.oneof(
  fc.array(entries(['field', 'direction', 'nope', '__proto__'], fc.oneof(json(fc.constantFrom(...FIELDS)), json(fc.constantFrom('asc', 'desc', 'ASC', 'up')), json(value))), { maxLength: 7 }).map((items) => `[${items.join(',')}]`),
  json(value),
);
const select = fc.oneof(json(fc.array(fc.constantFrom(...FIELDS), { maxLength: 5 })), json(value));

/** What the test service allows per resource (helpers/test-app.ts), so that most requests pass validation and reach SQL. */
interface ResourceSpec {
  filters: Record<string, { ops: readonly string[]; value: fc.Arbitrary<unknown> }>;
  sortable: readonly string[];
  writable: Record<string, fc.Arbitrary<unknown>>;
}
const TEXT_OPS = ['eq', 'ne', 'in', 'notIn', 'gt', 'gte', 'lt', 'lte', 'between', 'contains', 'startsWith', 'endsWith'];
const shortText = fc.oneof(fc.constantFrom('first', 'second', 'alice item', 'a', ''), text);
const smallInt = fc.oneof(fc.integer({ min: -3, max: 10 }), number);
const isoDate = fc.date({ noInvalidDate: true, min: new Date(0), max: new Date(4e12) }).map((date) => date.toISOString());
const SPECS: Record<string, ResourceSpec> = {
  notes: {
    filters: { id: { ops: ['eq', 'ne', 'in', 'notIn'], value: shortText }, title: { ops: TEXT_OPS, value: shortText }, content: { ops: ['contains', 'isNull', 'isNotNull'], value: shortText } },
    sortable: ['id', 'title'],
    writable: { title: shortText, content: fc.oneof(shortText, fc.constant(null)) },
  },
  items: {
    filters: {
      id: { ops: ['eq', 'in'], value: smallInt },
      name: { ops: ['eq', 'contains'], value: shortText },
      price: { ops: ['eq', 'gt', 'gte', 'lt', 'lte', 'between', 'in', 'isNull', 'isNotNull'], value: smallInt },
      active: { ops: ['eq'], value: fc.boolean() },
      createdAt: { ops: ['gt', 'lt', 'between'], value: isoDate },
      ownerId: { ops: ['eq'], value: fc.constantFrom('alice', 'bob', 'mallory') },
      email: { ops: ['eq'], value: shortText },
    },
    sortable: ['id', 'name', 'price', 'rating', 'createdAt'],
    writable: { name: shortText, price: fc.oneof(smallInt, fc.constant(null)), rating: fc.oneof(number, fc.constant(null)), active: fc.boolean(), secret: shortText, email: fc.oneof(shortText, fc.constant(null)), categoryId: fc.oneof(smallInt, fc.constant(null)) },
  },
  readings: { filters: { serial: { ops: ['eq', 'in'], value: fc.bigInt().map(String) } }, sortable: [], writable: { serial: fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map(String), payload: fc.base64String({ maxLength: 12 }) } },
  categories: { filters: {}, sortable: [], writable: { name: shortText } },
  // Client keys; maxBatch 5 and maxAffected 3, with four seeded rows (codes 1 to 4), so broad bulk writes pass the limit.
  counters: {
    filters: { code: { ops: ['eq', 'in'], value: fc.oneof(fc.constantFrom('1', '2', '3', '4'), shortText) }, n: { ops: ['eq', 'gte'], value: smallInt } },
    sortable: ['code', 'n', 'label'],
    writable: { code: fc.oneof(fc.constantFrom('1', '5', 'new'), shortText), n: smallInt, label: fc.oneof(shortText, fc.constant(null)) },
  },
};

/** The value an operator takes (CONTRACT §2), from the field's kind of value; arrays and pairs where due. */
function operand(op: string, base: fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  if (op === 'in' || op === 'notIn') return fc.array(base, { minLength: 1, maxLength: 4 });
  if (op === 'between') return fc.tuple(base, base);
  if (op === 'isNull' || op === 'isNotNull') return fc.constant(true);
  return base;
}

/** A where tree the resource's policy allows, depth-bounded; any leaf may still be junk. */
function allowedWhere(spec: ResourceSpec, depth: number): fc.Arbitrary<string> {
  const fields = Object.keys(spec.filters);
  if (fields.length === 0) return whereText(0);
  const condition = fc.constantFrom(...fields).chain((field) =>
    fc.constantFrom(...spec.filters[field].ops).chain((op) => json(operand(op, spec.filters[field].value)).map((operandText) => objectText([[field, objectText([[op, operandText]])]]))),
  );
  if (depth === 0) return condition;
  const nested = fc.constantFrom('AND', 'OR', 'NOT').chain((junction) =>
    junction === 'NOT'
      ? allowedWhere(spec, depth - 1).map((inner) => objectText([[junction, inner]]))
      : fc.array(allowedWhere(spec, depth - 1), { maxLength: 3 }).map((items) => objectText([[junction, `[${items.join(',')}]`]])),
  );
  return fc.oneof({ weight: 3, arbitrary: condition }, { weight: 1, arbitrary: nested });
}

function listBody(spec: ResourceSpec): fc.Arbitrary<string> {
  const allowed = fc.record(
    {
      where: allowedWhere(spec, 6),
      orderBy: spec.sortable.length === 0 ? fc.constant('[]') : json(fc.array(fc.record({ field: fc.constantFrom(...spec.sortable), direction: fc.constantFrom('asc', 'desc') }), { maxLength: 3 })),
      select: spec.sortable.length === 0 ? fc.constant('["id"]') : json(fc.array(fc.constantFrom(...spec.sortable), { minLength: 1, maxLength: 3 })),
      limit: json(fc.integer({ min: 0, max: 12 })),
      offset: json(fc.integer({ min: 0, max: 5 })),
      includeTotal: json(fc.boolean()),
      // CONTRACT §10: true, or a forged cursor (base64url noise, or any text): never a 5xx, never a crypto detail.
      cursor: fc.oneof(fc.constant('true'), json(fc.base64String({ maxLength: 120 }).map((text) => text.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''))), json(text)),
    },
    { requiredKeys: [] },
  ).map((record) => objectText(Object.entries(record) as [string, string][]));
  const junk = entries(LIST_KEYS, fc.oneof(where, orderBy, select, json(number), json(fc.boolean()), json(value)), 5);
  return fc.oneof({ weight: 3, arbitrary: allowed }, { weight: 1, arbitrary: junk });
}

function filterBody(spec: ResourceSpec): fc.Arbitrary<string> {
  const allowed = fc.option(allowedWhere(spec, 4), { nil: undefined }).map((tree) => (tree === undefined ? '{}' : objectText([['where', tree]])));
  return fc.oneof({ weight: 3, arbitrary: allowed }, { weight: 1, arbitrary: entries(['where', 'nope', '__proto__'], fc.oneof(where, json(value)), 2) });
}

function dataBody(spec: ResourceSpec): fc.Arbitrary<string> {
  const fields = Object.keys(spec.writable);
  const allowed = fc.subarray(fields).chain((chosen) => fc.tuple(...chosen.map((field) => json(spec.writable[field]).map((valueText) => [field, valueText] as [string, string]))));
  return fc.oneof({ weight: 3, arbitrary: allowed.map((pairs) => objectText(pairs)) }, { weight: 1, arbitrary: entries(FIELDS, json(value), 6) });
}

/** An id for a path segment: seeded rows, numbers, and strings that are trouble in a URL or a key. */
const id = fc.oneof(
  fc.constantFrom('1', '2', '3', '4', NOTE_ID_TOKENS[0], NOTE_ID_TOKENS[1], NOTE_ID_TOKENS[2], '0', '-1', '9007199254740993', '1e3', '1.5', 'NaN', '%zz', '%00', '%2F', '..', 'a%20b', '__proto__', 'constructor', 'x'.repeat(300)),
  fc.string({ maxLength: 12 }).map((raw) => encodeURIComponent(raw)),
  fc.integer().map(String),
);
const query = fc.oneof(
  fc.constant(''),
  fc.array(fc.constantFrom(...FIELDS), { maxLength: 4 }).map((fields) => `?select=${fields.map(encodeURIComponent).join(',')}`),
  fc.constantFrom('?select=', '?select=id&select=title', '?nope=1', '?__proto__[x]=1', '?select[]=id', '?limit=5'),
);

interface Route {
  method: string;
  path: string;
  body: fc.Arbitrary<string> | null;
}

const ACTIONS = ['list', 'findOne', 'count', 'exists', 'get', 'create', 'update', 'delete', 'createMany', 'updateMany', 'deleteMany', 'upsert'] as const;

/** createMany's body (CONTRACT §10): up to 7 items (counters allow 5), each one a data body; or junk. */
function itemsBody(spec: ResourceSpec): fc.Arbitrary<string> {
  const allowed = fc.array(dataBody(spec), { maxLength: 7 }).map((items) => objectText([['items', `[${items.join(',')}]`]]));
  return fc.oneof({ weight: 3, arbitrary: allowed }, { weight: 1, arbitrary: entries(['items', 'where', 'nope', '__proto__'], fc.oneof(json(value), where), 2) });
}

/** updateMany's body: a where and a data body, either possibly left out. */
function whereAndDataBody(spec: ResourceSpec): fc.Arbitrary<string> {
  return fc
    .record({ where: allowedWhere(spec, 4), data: dataBody(spec) }, { requiredKeys: [] })
    .map((record) => objectText(Object.entries(record) as [string, string][]));
}

const route: fc.Arbitrary<{ method: string; path: string; body: string | null }> = fc
  .tuple(
    fc.oneof({ weight: 4, arbitrary: fc.constantFrom('notes', 'items') }, { weight: 1, arbitrary: fc.constantFrom('readings', 'categories', 'counters') }, { weight: 1, arbitrary: fc.constantFrom(...RESOURCES) }),
    fc.oneof({ weight: 12, arbitrary: fc.constantFrom(...ACTIONS) }, { weight: 1, arbitrary: fc.constantFrom('ping', 'stray') }),
    id,
    query,
  )
  .chain(([resource, action, rowId, search]) => {
    const spec = SPECS[resource] ?? SPECS.notes;
    const base = `/api/${resource}`;
    const routes: Record<string, Route> = {
      // categories are listed at /search (routes.list.path).
      list: { method: 'POST', path: resource === 'categories' ? `${base}/search` : `${base}/query`, body: listBody(spec) },
      findOne: { method: 'POST', path: `${base}/find-one`, body: listBody(spec) },
      count: { method: 'POST', path: `${base}/count`, body: filterBody(spec) },
      exists: { method: 'POST', path: `${base}/exists`, body: filterBody(spec) },
      get: { method: 'GET', path: `${base}/${rowId}${search}`, body: null },
      create: { method: 'POST', path: base, body: dataBody(spec) },
      update: { method: 'PATCH', path: `${base}/${rowId}`, body: dataBody(spec) },
      delete: { method: 'DELETE', path: `${base}/${rowId}`, body: null },
      ping: { method: 'POST', path: '/api/shop/ping', body: entries(['echo', 'nope', '__proto__'], json(value), 2) },
      stray: { method: 'PUT', path: `${base}/${rowId}`, body: dataBody(spec) },
      // CONTRACT §10 (items and counters opt in; elsewhere these are stray routes).
      createMany: { method: 'POST', path: `${base}/bulk`, body: itemsBody(spec) },
      updateMany: { method: 'PATCH', path: base, body: whereAndDataBody(spec) },
      deleteMany: { method: 'POST', path: `${base}/delete`, body: filterBody(spec) },
      upsert: { method: 'PUT', path: `${base}/${rowId}`, body: dataBody(spec) },
    };
    const chosen = routes[action];
    const method = fc.oneof({ weight: 19, arbitrary: fc.constant(chosen.method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'HEAD', 'OPTIONS') });
    const body = chosen.body === null ? fc.oneof({ weight: 6, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: listBody(spec) }) : chosen.body.map((text) => text as string | null);
    return fc.record({ method, path: fc.constant(chosen.path), body });
  });

/** Bytes that are not UTF-8 (stray, overlong, an encoded surrogate, truncated) and lone surrogate escapes, put inside a value. */
const INEXACT_TEXT: Readonly<Record<string, Buffer>> = {
  'in-value-ff-fe': Buffer.from([0xff, 0xfe]),
  'in-value-overlong': Buffer.from([0xc0, 0xaf]),
  'in-value-encoded-surrogate': Buffer.from([0xed, 0xa0, 0x80]),
  'in-value-truncated': Buffer.from([0xe2, 0x82]),
  'in-value-lone-high': Buffer.from('\\ud800'),
  'in-value-lone-low': Buffer.from('x\\udfff'),
};
const INEXACT_TRANSPORTS = Object.keys(INEXACT_TEXT);

/** The JSON text with `inserted` inside its first string value (or a new one, when it has none). */
function insideAValue(jsonText: string, inserted: Buffer): Buffer {
  const value = /:\s*"/.exec(jsonText);
  if (value === null || !jsonText.startsWith('{')) return Buffer.concat([Buffer.from('{"title":"'), inserted, Buffer.from(`"${jsonText.startsWith('{') && jsonText !== '{}' ? `,${jsonText.slice(1)}` : '}'}`)]);
  const at = value.index + value[0].length;
  return Buffer.concat([Buffer.from(jsonText.slice(0, at)), inserted, Buffer.from(jsonText.slice(at))]);
}

/** What becomes of a JSON text on the wire: sent as is, or broken in one of the ways clients and attackers break it. */
const brokenTransport = fc.constantFrom('truncated', 'invalid-utf8', 'bom', 'empty', 'deep', 'huge', 'not-object', 'proto-pollution', ...INEXACT_TRANSPORTS);
const transport = fc.oneof({ weight: 6, arbitrary: fc.constant('as-is') }, { weight: 1, arbitrary: brokenTransport });
const otherContentType = fc.constantFrom<string | null>(
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/merge-patch+json',
  null,
);
const contentType = fc.oneof({ weight: 8, arbitrary: fc.constant<string | null>('application/json') }, { weight: 1, arbitrary: otherContentType });

function onTheWire(jsonText: string, how: string): Buffer {
  switch (how) {
    case 'truncated':
      return Buffer.from(jsonText.slice(0, Math.max(0, jsonText.length - 1 - (jsonText.length >> 1))));
    case 'invalid-utf8':
      return Buffer.concat([Buffer.from(jsonText.slice(0, 2)), Buffer.from([0xc3, 0x28, 0xff, 0xfe]), Buffer.from(jsonText.slice(2))]);
    case 'bom':
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(jsonText)]);
    case 'empty':
      return Buffer.alloc(0);
    case 'deep':
      return Buffer.from(`{"where":${'{"AND":['.repeat(400)}{}${']}'.repeat(400)},"x":${'['.repeat(3000)}${']'.repeat(3000)}}`);
    case 'huge':
      return Buffer.from(JSON.stringify({ title: 'x'.repeat(FUZZ_BODY_LIMIT + 10) }));
    case 'not-object':
      return Buffer.from(['[]', 'null', '"text"', '42', 'true', '{}'][jsonText.length % 6]);
    case 'proto-pollution':
      return Buffer.from(`{"__proto__":{"isAdmin":true,"title":"polluted"},"constructor":{"prototype":{"x":1}},${jsonText.slice(1)}`);
    default:
      return how in INEXACT_TEXT ? insideAValue(jsonText, INEXACT_TEXT[how]) : Buffer.from(jsonText);
  }
}

export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc
  .record({
    mode: fc.constantFrom<FuzzRequest['mode']>('generic', 'compiled'),
    route,
    user: fc.oneof({ weight: 8, arbitrary: fc.constantFrom<FuzzRequest['user']>('alice', 'bob') }, { weight: 1, arbitrary: fc.constantFrom<FuzzRequest['user']>('anonymous', 'bad') }),
    contentType,
    transport,
    headers: conditionalHeaders,
  })
  .map(({ mode, route: { method, path, body }, user, contentType: type, transport: how, headers }) => ({
    mode,
    method,
    path,
    user,
    contentType: body === null && how === 'as-is' ? null : type,
    body: body === null && how === 'as-is' ? null : onTheWire(body ?? '{}', how),
    inexact: how in INEXACT_TEXT,
    headers,
  }));
