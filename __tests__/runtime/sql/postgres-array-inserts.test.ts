// createMany on PostgreSQL writes a batch as one INSERT from one array per column (unnest), the same text for every
// batch size (dialects/postgres-array-insert.ts): every column kind it maps answers as a single create answers it,
// text that array literals must escape arrives intact, a value the column refuses fails as in a VALUES list (no
// silent cut by a cast), and columns without an array form (enums, arrays) keep the VALUES list of each size.
import { getTableColumns, sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  char,
  date,
  doublePrecision,
  integer,
  interval,
  json,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  real,
  serial,
  smallint,
  text,
  time,
  timestamp,
  uuid,
  varchar,
} from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/node-postgres';
import { Pool } from 'pg';
import { clearRegistry, crud, defineService, statementCacheStats } from 'tessera-api';

const POSTGRES_URL = process.env.TESSERA_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'array_inserts';

const mood = pgEnum('mood', ['calm', 'busy']);

const wide = pgTable('t_wide', {
  id: serial('id').primaryKey(),
  big: bigint('big', { mode: 'bigint' }),
  big53: bigint('big53', { mode: 'number' }),
  small: smallint('small'),
  count: integer('count'),
  amount: numeric('amount', { precision: 12, scale: 3 }),
  ratio: real('ratio'),
  share: doublePrecision('share'),
  takenAt: timestamp('taken_at', { mode: 'date', precision: 3, withTimezone: true }),
  localAt: timestamp('local_at', { mode: 'string', precision: 3 }),
  day: date('day'),
  clock: time('clock'),
  span: interval('span'),
  code: uuid('code'),
  doc: json('doc'),
  meta: jsonb('meta'),
  note: text('note'),
  short: varchar('short', { length: 5 }),
  initials: char('initials', { length: 3 }),
  flag: boolean('flag'),
});

const tagged = pgTable('t_tagged', {
  id: serial('id').primaryKey(),
  mood: mood('mood').notNull(),
  tags: text('tags').array(),
});

const WIDE_DDL = `CREATE TABLE t_wide (id SERIAL PRIMARY KEY, big BIGINT, big53 BIGINT, small SMALLINT, count INTEGER,
  amount NUMERIC(12, 3), ratio REAL, share DOUBLE PRECISION, taken_at TIMESTAMPTZ(3), local_at TIMESTAMP(3), day DATE,
  clock TIME, span INTERVAL, code UUID, doc JSON, meta JSONB, note TEXT, short VARCHAR(5), initials CHAR(3), flag BOOLEAN)`;

/** Text an array literal must quote or escape: quotes, backslashes, commas, braces, the word NULL, blanks, non-ASCII. */
const AWKWARD = ['say "hi"', 'back\\slash', 'a,b', '{x}', 'NULL', '', '  padded  ', 'żółw ✓', 'line\nbreak'];

function row(index: number): Record<string, unknown> {
  const none = index % 5 === 4;
  return {
    big: none ? null : String(9_007_199_254_740_993n + BigInt(index)),
    big53: none ? null : 2 ** 40 + index,
    small: none ? null : -index,
    count: none ? null : index * 1000,
    amount: none ? null : `${index}.125`,
    ratio: none ? null : index / 4,
    share: none ? null : index / 3,
    takenAt: none ? null : new Date(Date.UTC(2024, 1, 3, 4, 5, 6, index)).toISOString(),
    localAt: none ? null : `2024-02-03 04:05:0${index % 10}.25`,
    day: none ? null : `2024-02-${String(10 + index).padStart(2, '0')}`,
    clock: none ? null : `04:05:0${index % 10}`,
    span: none ? null : `${index} days`,
    code: none ? null : `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    doc: none ? null : { text: AWKWARD[index % AWKWARD.length], list: [index, 'x"y'] },
    meta: none ? null : [index, { nested: AWKWARD[(index + 1) % AWKWARD.length] }],
    note: AWKWARD[index % AWKWARD.length],
    short: none ? null : 'ab"c',
    initials: none ? null : 'x',
    flag: none ? null : index % 2 === 0,
  };
}

describe('postgres createMany from one array per column', () => {
  let pool: Pool;
  let db: any;
  let resources: { wide: any; tagged: any };

  beforeAll(async () => {
    const admin = new Pool({ connectionString: POSTGRES_URL, max: 1 });
    await admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    await admin.query(`CREATE SCHEMA ${SCHEMA}`);
    await admin.end();
    pool = new Pool({ connectionString: POSTGRES_URL, max: 3, options: `-c search_path=${SCHEMA}` });
    db = drizzle(pool);
    clearRegistry();
    const service = defineService({ name: 'arrays', db });
    const fields: any = Object.fromEntries(Object.keys(getTableColumns(wide)).map((key) => [key, key === 'id' ? { read: true } : { read: true, create: true }]));
    const hooks = { beforeCreate: ({ data }: { data: Record<string, unknown> }) => (data.note === 'too long' ? { ...data, short: 'too long' } : data) };
    resources = {
      wide: service.resource({ name: 'wide', table: wide, id: wide.id }).use(crud({ access: 'public', fields, operations: { createMany: true }, hooks })) as any,
      tagged: service.resource({ name: 'tagged', table: tagged, id: tagged.id }).use(
        crud({ access: 'public', fields: { id: { read: true }, mood: { read: true, create: true }, tags: { read: true, create: true } }, operations: { createMany: true } }),
      ) as any,
    };
  });
  beforeEach(async () => {
    await pool.query('DROP TABLE IF EXISTS t_wide, t_tagged');
    await pool.query('DROP TYPE IF EXISTS mood');
    await pool.query(WIDE_DDL);
    await pool.query("CREATE TYPE mood AS ENUM ('calm', 'busy')");
    await pool.query('CREATE TABLE t_tagged (id SERIAL PRIMARY KEY, mood mood NOT NULL, tags TEXT[])');
  });
  afterAll(async () => {
    await pool.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    await pool.end();
    clearRegistry();
  });

  it('answers every column kind as a single create and a get answer it, in input order', async () => {
    const sent = Array.from({ length: 10 }, (_, index) => row(index));
    const { items } = await resources.wide.createMany({ input: { items: sent } });
    const ids = items.map((written: { id: number }) => written.id);
    expect(ids).toEqual(Array.from({ length: 10 }, (_, index) => index + 1));
    for (const [index, written] of items.entries()) {
      expect(written).toEqual(JSON.parse(JSON.stringify(await resources.wide.get({ input: { id: ids[index] } }))));
      expect(written.note).toBe(sent[index].note);
    }
    const single = await resources.wide.create({ input: row(3) });
    expect({ ...items[3], id: single.id }).toEqual(JSON.parse(JSON.stringify(single)));
  });

  it('runs one cached statement for every batch size', async () => {
    await resources.wide.createMany({ input: { items: [row(1), row(2), row(3)] } });
    const before = statementCacheStats(db);
    const { items } = await resources.wide.createMany({ input: { items: [row(4), row(5), row(6), row(7), row(8)] } });
    expect(items.map((written: { id: number }) => written.id)).toEqual([4, 5, 6, 7, 8]);
    const after = statementCacheStats(db);
    expect([after.hits, after.misses]).toEqual([before.hits + 1, before.misses]);
  });

  it('fails a value the column refuses as a VALUES list would, and writes nothing', async () => {
    const single = await resources.wide.create({ input: { ...row(1), note: 'too long' } }).catch((error: unknown) => error);
    expect(single).toMatchObject({ code: 'VALIDATION_ERROR' });
    const sent = [row(1), { ...row(2), note: 'too long' }, row(3)];
    await expect(resources.wide.createMany({ input: { items: sent } })).rejects.toMatchObject({ code: (single as { code: string }).code });
    expect((await pool.query('SELECT count(*)::int AS n FROM t_wide')).rows).toEqual([{ n: 0 }]);
  });

  it('keeps the VALUES list, one text per batch size, for enum and array columns', async () => {
    const batch = (count: number) => Array.from({ length: count }, (_, index) => ({ mood: index % 2 === 0 ? 'calm' : 'busy', tags: index % 3 === 0 ? null : ['a,b', `t"${index}`, 'NULL'] }));
    const first = await resources.tagged.createMany({ input: { items: batch(3) } });
    expect(first.items).toEqual(batch(3).map((sent, index) => ({ id: index + 1, ...sent })));
    const before = statementCacheStats(db);
    await resources.tagged.createMany({ input: { items: batch(4) } });
    expect(statementCacheStats(db).misses).toBe(before.misses + 1);
    const stored = await db.execute(sql`select mood, tags from t_tagged order by id`);
    expect(stored.rows).toEqual([...batch(3), ...batch(4)]);
  });
});
