// PostgreSQL builds included rows as JSON inside the parent's statement (CONTRACT §9, dialects/postgres-nested-rows.ts):
// every value must answer exactly as the same row read directly does, for the types JSON would change (a bigint past
// 2^53, numeric, timestamps with microseconds, dates, intervals, json text), those JSON carries as they are (integers,
// text, booleans, uuids) and NULLs, cached or scoped, to-one or to-many, nested; a level in its answer form straight
// from the statement (groups under items) and levels serialized after decoding (items.note has a scrub, which sees
// the whole row: its level reads every item column, whatever the select).
import { drizzle } from 'drizzle-orm/node-postgres';
import { bigint, boolean, char, date, doublePrecision, integer, interval, json, jsonb, numeric, pgTable, real, smallint, text, timestamp, uuid, varchar } from 'drizzle-orm/pg-core';
import { Pool } from 'pg';
import { crud, defineService } from 'tessera-api';
import { clearRegistry } from '../helpers/test-app';

const POSTGRES_URL = process.env.TESSERA_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const groups = pgTable('fid_groups', { id: integer('id').primaryKey(), name: text('name'), code: char('code', { length: 4 }) });
const items = pgTable('fid_items', {
  id: bigint('id', { mode: 'bigint' }).primaryKey(),
  groupId: integer('group_id').references(() => groups.id),
  big: bigint('big', { mode: 'bigint' }),
  count: bigint('count', { mode: 'number' }),
  amount: numeric('amount', { precision: 30, scale: 10 }),
  ratio: doublePrecision('ratio'),
  share: real('share'),
  at: timestamp('at', { withTimezone: true, precision: 6, mode: 'string' }),
  atDate: timestamp('at_date', { withTimezone: true, precision: 3, mode: 'date' }),
  local: timestamp('local', { precision: 6, mode: 'string' }),
  day: date('day'),
  dayDate: date('day_date', { mode: 'date' }),
  flag: boolean('flag'),
  doc: jsonb('doc'),
  meta: json('meta'),
  note: text('note'),
  label: varchar('label', { length: 40 }),
  uid: uuid('uid'),
  span: interval('span'),
  rank: smallint('rank'),
});
const notes = pgTable('fid_notes', { id: integer('id').primaryKey(), itemId: bigint('item_id', { mode: 'bigint' }).references(() => items.id) });

const DDL = [
  'DROP TABLE IF EXISTS fid_notes, fid_items, fid_groups CASCADE',
  'CREATE TABLE fid_groups (id INTEGER PRIMARY KEY, name TEXT, code CHAR(4))',
  `CREATE TABLE fid_items (id BIGINT PRIMARY KEY, group_id INTEGER REFERENCES fid_groups(id), big BIGINT, count BIGINT, amount NUMERIC(30, 10),
    ratio DOUBLE PRECISION, share REAL, at TIMESTAMPTZ(6), at_date TIMESTAMPTZ(3), local TIMESTAMP(6), day DATE, day_date DATE, flag BOOLEAN,
    doc JSONB, meta JSON, note TEXT, label VARCHAR(40), uid UUID, span INTERVAL, rank SMALLINT)`,
  'CREATE INDEX fid_items_group ON fid_items (group_id)',
  'CREATE TABLE fid_notes (id INTEGER PRIMARY KEY, item_id BIGINT REFERENCES fid_items(id))',
];

const COLUMNS = 'id, group_id, big, count, amount, ratio, share, at, at_date, local, day, day_date, flag, doc, meta, note, label, uid, span, rank';
const ROWS: unknown[][] = [
  [
    '9223372036854775807', 1, '-9223372036854775808', 9007199254740991, '12345678901234567890.0123456789', 0.30000000000000004, 3.14,
    '2024-02-29 23:59:59.123456+00', '1999-12-31 23:59:59.999+00', '2024-01-01 00:00:00.000001', '2024-02-29', '0999-01-01', true,
    '{"a": [1, 2.5, "x"], "big": 12345678901234567890}', '{"b":1,  "a":2}', 'he said "hi"\\\n\u2028 😀', 'ü', '0b9a2c3e-1f4d-4e5a-8b6c-7d8e9f0a1b2c', '1 day 02:03:04.5', -32768,
  ],
  ['9007199254740993', 1, '9007199254740993', -1, '-0.0000000001', 1e-300, -0, '1970-01-01 00:00:00+00', '2038-01-19 03:14:07.5+00', '1900-06-30 12:00:00', '1970-01-01', '2000-02-29', false, '[]', '"text"', '', ' ', null, '-3 mons', 32767],
  ['3', 1, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null],
  ['4', 2, '0', 0, '0', 0, 0, '2024-06-01 12:00:00.5+00', null, null, null, null, null, 'null', null, null, null, null, null, 0],
];

describe('included rows on PostgreSQL', () => {
  const pool = new Pool({ connectionString: POSTGRES_URL, max: 3 });
  const statements: string[] = [];
  const query = pool.query.bind(pool);
  (pool as any).query = (...args: any[]) => {
    statements.push(typeof args[0] === 'string' ? args[0] : args[0].text);
    return (query as any)(...args);
  };
  const db = drizzle(pool);
  let app: ReturnType<typeof defineApp>;

  function defineApp() {
    const service = defineService({ name: 'fid', db });
    const read = { read: true } as const;
    const itemFields = {
      ...{ id: { read: true, sort: true }, groupId: { read: true, filter: ['eq' as const] }, big: read, count: read, amount: read, ratio: read, share: read, at: read, atDate: read },
      ...{ local: read, day: read, dayDate: read, flag: read, doc: read, meta: read, note: { read: true, scrub: ({ value }: { value: unknown }) => value }, label: read, uid: read, span: read, rank: read },
    };
    let itemsRef: object;
    const groupsResource = service.resource({ name: 'groups', table: groups, id: groups.id }).use(
      crud({ access: 'public', fields: { id: { read: true, sort: true }, name: { read: true }, code: { read: true } }, relations: { items: { resource: () => itemsRef } } }),
    );
    const itemsResource = service.resource({ name: 'items', table: items, id: items.id }).use(
      crud({
        // A caller flagged `scoped` sees three of the items: the statement leaves the cache (spec §8).
        access: { authorize: () => true, scope: ({ ctx }) => (ctx.scoped === true ? { id: { in: [BigInt('9223372036854775807'), 3n, 4n] } } : undefined) },
        fields: itemFields,
        relations: { group: { resource: groupsResource } },
      }),
    );
    itemsRef = itemsResource;
    const notesResource = service.resource({ name: 'notes', table: notes, id: notes.id }).use(
      crud({ access: 'public', fields: { id: { read: true, sort: true }, itemId: { read: true } }, relations: { item: { resource: itemsResource } } }),
    );
    return { groups: groupsResource, items: itemsResource, notes: notesResource };
  }

  beforeAll(async () => {
    for (const statement of DDL) await query(statement);
    await query("INSERT INTO fid_groups (id, name, code) VALUES (1, 'one', 'ab'), (2, NULL, NULL), (3, 'empty', '')");
    let index = 0;
    const values = ROWS.map((row) => `(${row.map(() => `$${++index}`).join(', ')})`).join(', ');
    await query(`INSERT INTO fid_items (${COLUMNS}) VALUES ${values}`, ROWS.flat());
    await query("INSERT INTO fid_notes (id, item_id) VALUES (1, 9223372036854775807), (2, 9007199254740993), (3, 3), (4, 4), (5, NULL)");
    clearRegistry();
    app = defineApp();
  });
  afterAll(async () => {
    clearRegistry();
    await pool.end();
  });

  for (const scoped of [false, true]) {
    const ctx = { scoped };
    describe(scoped ? 'through a scoped resource (uncached statement)' : 'through a cached statement', () => {
      it('answers a to-many include in one statement, each row as a direct read answers it', async () => {
        statements.length = 0;
        const answer = (await app.groups.list({ input: { include: { items: { limit: 10 } } }, ctx })) as { items: any[] };
        expect(statements).toHaveLength(1);
        for (const group of answer.items) {
          const direct = (await app.items.list({ input: { where: { groupId: { eq: group.id } }, limit: 10 }, ctx })) as { items: unknown[] };
          expect(JSON.stringify(group.items)).toBe(JSON.stringify(direct.items));
        }
        expect(answer.items.map((group) => group.items.length)).toEqual(scoped ? [2, 1, 0] : [3, 1, 0]);
      });

      it('answers a to-one include, nested, each row as a direct get answers it (NULL join: null)', async () => {
        statements.length = 0;
        const answer = (await app.notes.list({ input: { include: { item: { include: { group: { select: ['id', 'name'] } } } } }, ctx })) as { items: any[] };
        expect(statements).toHaveLength(1);
        for (const note of answer.items) {
          if (note.itemId === null || (scoped && note.itemId === '9007199254740993')) {
            expect(note.item).toBeNull();
            continue;
          }
          const { group, ...item } = note.item;
          expect(JSON.stringify(item)).toBe(JSON.stringify(await app.items.get({ input: { id: note.itemId }, ctx })));
          expect(group).toEqual(await app.groups.get({ input: { id: item.groupId, select: ['id', 'name'] }, ctx }));
        }
        expect(answer.items[0].item.big).toBe('-9223372036854775808');
        expect(answer.items[0].item.at).toBe('2024-02-29 23:59:59.123456+00');
      });
    });
  }

  it('takes one statement per level where a level reads a column it cannot carry (char(n) keeps its trailing blanks)', async () => {
    statements.length = 0;
    const answer = (await app.notes.list({ input: { include: { item: { select: ['id'], include: { group: true } } } }, ctx: {} })) as { items: any[] };
    expect(statements).toHaveLength(3);
    expect(answer.items[0].item.group).toEqual({ id: 1, name: 'one', code: 'ab  ' });
    expect(answer.items[0].item.group).toEqual(await app.groups.get({ input: { id: 1 }, ctx: {} }));
  });
});
