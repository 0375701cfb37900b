// createMany's multi-row INSERT as text (sql/bulk-inserts.ts), on the three databases: the rows answered as a single
// create answers them (every column kind through its encoder and decoder), in input order, for each kind of key; the
// statement cache used where spec §8 allows it and only there; several INSERTs (chunks) in one transaction, all or nothing.
import { clearRegistry, crud, defineService, statementCacheStats } from 'tessera-api';
import { DIALECTS, openDatabase, type TestDatabase } from '../../helpers/databases';

/** Rows per INSERT on t_kinds (9 columns on MariaDB and PostgreSQL, 7 on SQLite): one more makes two INSERTs everywhere. */
const TWO_CHUNKS = 4_300;
/** Rows per INSERT on t_counters (3 columns): 10,000. */
const COUNTER_CHUNKS = 10_001;

function defineBulkService(database: TestDatabase) {
  const { notes, kinds, counters } = database.tables;
  const service = defineService({ name: 'bulk', db: database.db });
  const notesResource = service.resource({ name: 'notes', table: notes, id: notes.id }).use(
    crud({ access: 'public', fields: { id: { read: true }, title: { read: true, create: true }, content: { read: true, create: true } }, operations: { createMany: true } }),
  );
  const kindsFields = { id: { read: true }, label: { read: true, create: true }, takenAt: { read: true, create: true }, valid: { read: true, create: true }, ratio: { read: true, create: true }, meta: { read: true, create: true } };
  const kindsResource = service.resource({ name: 'kinds', table: kinds, id: kinds.id }).use(crud({ access: 'public', fields: kindsFields, operations: { createMany: true }, maxBatch: TWO_CHUNKS }));
  const countersResource = service.resource({ name: 'counters', table: counters, id: counters.code }).use(
    crud({ access: 'public', fields: { code: { read: true, create: true }, n: { read: true, create: true }, label: { read: true, create: true } }, operations: { createMany: true }, maxBatch: COUNTER_CHUNKS }),
  );
  return { notes: notesResource as any, kinds: kindsResource as any, counters: countersResource as any };
}

function kind(index: number): Record<string, unknown> {
  return {
    label: `kind ${index}`,
    takenAt: new Date(Date.UTC(2024, 1, 3, 4, 5, 6, index % 1000)).toISOString(),
    valid: index % 3 === 0 ? null : index % 2 === 0,
    ratio: index / 8,
    meta: index % 4 === 0 ? null : { tags: ['a', `t${index}`], n: index },
  };
}

describe.each(DIALECTS)('%s', (dialect) => {
  let database: TestDatabase;
  let bulk: ReturnType<typeof defineBulkService>;

  beforeAll(async () => {
    database = await openDatabase(dialect, 'bulk_inserts');
    clearRegistry();
    bulk = defineBulkService(database);
  });
  beforeEach(() => database.reset());
  afterAll(async () => {
    await database.close();
    clearRegistry();
  });

  it('answers each row as a single create answers it, every column kind, in input order under ascending numbered keys', async () => {
    const sent = [kind(1), kind(2), kind(3), kind(4), kind(5), kind(6)];
    const { items } = await bulk.kinds.createMany({ input: { items: sent } });
    const ids = items.map((row: { id: number }) => row.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const single = await bulk.kinds.create({ input: kind(1) });
    expect({ ...items[0], id: single.id }).toEqual(JSON.parse(JSON.stringify(single)));
    for (const [index, row] of items.entries()) expect(row).toEqual(await bulk.kinds.get({ input: { id: ids[index] } }).then((got: object) => JSON.parse(JSON.stringify(got))));
  });

  it('answers the keys a $defaultFn made, in input order, prepared for the call only (spec §8 rule 3)', async () => {
    const before = statementCacheStats(database.db);
    const { items } = await bulk.notes.createMany({ input: { items: [{ title: 'one' }, { title: 'two', content: 'x' }, { title: 'three' }] } });
    expect(items.map((row: { title: string }) => row.title)).toEqual(['one', 'two', 'three']);
    expect(new Set(items.map((row: { id: string }) => row.id)).size).toBe(3);
    const stored = (await database.raw('SELECT id, title FROM t_notes')) as { id: string; title: string }[];
    expect(new Map(stored.map((row) => [row.id, row.title]))).toEqual(new Map(items.map((row: { id: string; title: string }) => [row.id, row.title])));
    const after = statementCacheStats(database.db);
    expect([after.hits, after.misses]).toEqual([before.hits, before.misses]);
  });

  it('runs one shape from the statement cache (spec §8 rule 1): the second call of the same columns and count is a hit', async () => {
    const batch = (from: number) => ({ items: [0, 1, 2].map((n) => ({ code: `c${from + n}`, n })) });
    await bulk.counters.createMany({ input: batch(0) });
    const before = statementCacheStats(database.db);
    const { items } = await bulk.counters.createMany({ input: batch(3) });
    expect(items).toEqual([0, 1, 2].map((n) => ({ code: `c${3 + n}`, n, label: null })));
    expect(statementCacheStats(database.db).hits).toBe(before.hits + 1);
  });

  it('writes a batch larger than one INSERT in one transaction, answered in input order', async () => {
    const sent = Array.from({ length: TWO_CHUNKS }, (_, index) => kind(index));
    const { items } = await bulk.kinds.createMany({ input: { items: sent } });
    expect(items.map((row: { label: string }) => row.label)).toEqual(sent.map((row) => row.label));
    const ids = items.map((row: { id: number }) => row.id);
    expect(new Set(ids).size).toBe(TWO_CHUNKS);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(await database.raw('SELECT COUNT(*) AS n FROM t_kinds')).toEqual([{ n: dialect === 'postgres' ? String(TWO_CHUNKS) : TWO_CHUNKS }]);
  });

  it('rolls every INSERT back when the last one fails (CONFLICT)', async () => {
    await database.raw("INSERT INTO t_counters (code, n) VALUES ('taken', 0)");
    const sent = Array.from({ length: COUNTER_CHUNKS }, (_, index) => ({ code: index === COUNTER_CHUNKS - 1 ? 'taken' : `c${index}`, n: index }));
    await expect(bulk.counters.createMany({ input: { items: sent } })).rejects.toMatchObject({ code: 'CONFLICT' });
    expect(await database.raw('SELECT code, n FROM t_counters')).toEqual([{ code: 'taken', n: 0 }]);
  });
});

// MySQL has no INSERT … RETURNING: the keys come from insertId (or the rows) and the rows are read back in the
// transaction. No MySQL server runs here, so MariaDB answers Tessera's one version question (mariadb-returning.ts)
// as MySQL 8 would; every statement after it runs on MariaDB as MySQL's path writes it.
describe('mysql without RETURNING (MariaDB answering the version question as MySQL 8.0)', () => {
  let database: TestDatabase;
  let bulk: ReturnType<typeof defineBulkService>;
  let asked = 0;

  beforeAll(async () => {
    database = await openDatabase('mysql', 'bulk_as_mysql');
    const callbackPool = database.db.$client.pool;
    const query = callbackPool.query.bind(callbackPool);
    callbackPool.query = (options: { sql?: string }, values: unknown, done: (error: unknown, rows: unknown) => void) =>
      options?.sql === 'select version()' ? (asked++, done(null, [['8.0.36']])) : query(options, values, done);
    clearRegistry();
    bulk = defineBulkService(database);
  });
  beforeEach(() => database.reset());
  afterAll(async () => {
    await database.close();
    clearRegistry();
  });

  it('answers numbered, client and $defaultFn keys in input order, each row as stored', async () => {
    const kinds = await bulk.kinds.createMany({ input: { items: [kind(1), kind(2), kind(3)] } });
    const ids = kinds.items.map((row: { id: number }) => row.id);
    expect(ids).toEqual([1, 2, 3]);
    expect(asked).toBe(1);
    for (const [index, row] of kinds.items.entries()) expect(row).toEqual(JSON.parse(JSON.stringify(await bulk.kinds.get({ input: { id: ids[index] } }))));
    const counters = await bulk.counters.createMany({ input: { items: [{ code: 'b', n: 2 }, { code: 'a', n: 1 }] } });
    expect(counters.items).toEqual([{ code: 'b', n: 2, label: null }, { code: 'a', n: 1, label: null }]);
    const notes = await bulk.notes.createMany({ input: { items: [{ title: 'one' }, { title: 'two' }] } });
    const stored = (await database.raw('SELECT id, title FROM t_notes')) as { id: string; title: string }[];
    expect(new Map(stored.map((row) => [row.id, row.title]))).toEqual(new Map(notes.items.map((row: { id: string; title: string }) => [row.id, row.title])));
    expect(notes.items.map((row: { title: string }) => row.title)).toEqual(['one', 'two']);
  });

  it('writes a batch larger than one INSERT in one transaction, keys counted on from each INSERT\'s first', async () => {
    const sent = Array.from({ length: TWO_CHUNKS }, (_, index) => kind(index));
    const { items } = await bulk.kinds.createMany({ input: { items: sent } });
    expect(items.map((row: { id: number; label: string }) => [row.id, row.label])).toEqual(sent.map((row, index) => [index + 1, row.label]));
  });
});
