// CONTRACT §10: a cursor page ordered by a sortable column that is not readable, or is scrubbed, reads that column
// for its cursor but never answers it: rows keep their readable (and scrubbed) form, and pages still walk the order.
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { clearRegistry, crud, defineService } from 'tessera-api';

const table = sqliteTable('ranked', { id: integer('id').primaryKey(), rank: integer('rank').notNull(), code: text('code').notNull(), name: text('name') });

function defineRanked() {
  const client = new Database(':memory:');
  client.exec('CREATE TABLE ranked (id INTEGER PRIMARY KEY, rank INTEGER NOT NULL, code TEXT NOT NULL, name TEXT)');
  const insert = client.prepare('INSERT INTO ranked (rank, code, name) VALUES (?, ?, ?)');
  // rank runs against id; code repeats, so the key breaks its ties.
  for (let index = 0; index < 9; index++) insert.run(90 - index * 10, `code-${index % 4}`, `n${index}`);
  clearRegistry();
  const service = defineService({ name: 'hidden', db: drizzle(client) });
  return service.resource({ name: 'ranked', table, id: table.id }).use(
    crud({ access: 'public', fields: { id: { read: true }, rank: { sort: true }, code: { read: true, sort: true, scrub: () => '***' }, name: { read: true } } }),
  );
}

async function walk(resource: ReturnType<typeof defineRanked>, orderBy: { field: 'rank' | 'code'; direction?: 'asc' | 'desc' }[]) {
  const rows: unknown[] = [];
  let cursor: string | true | null = true;
  while (cursor !== null) {
    const page: { items: unknown[]; nextCursor: string | null } = await resource.list({ input: { orderBy, limit: 2, cursor } });
    rows.push(...page.items);
    cursor = page.nextCursor;
  }
  return rows;
}

describe('cursor pages by a column the caller cannot read', () => {
  afterAll(() => clearRegistry());

  it('orders by a sortable column that is not readable and never answers it', async () => {
    const rows = await walk(defineRanked(), [{ field: 'rank' }]);
    expect(rows.map((row) => Object.keys(row as object).join())).toEqual(Array(9).fill('id,code,name'));
    expect(rows.map((row) => (row as { id: number }).id)).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1]);
  });

  it('orders by a scrubbed column, answering the scrubbed value', async () => {
    const rows = (await walk(defineRanked(), [{ field: 'code', direction: 'desc' }])) as { id: number; code: string }[];
    expect(rows.map((row) => row.code)).toEqual(Array(9).fill('***'));
    // code-3 (ids 4, 8), code-2 (3, 7), code-1 (2, 6), code-0 (1, 5, 9); ties by id descending.
    expect(rows.map((row) => row.id)).toEqual([8, 4, 7, 3, 6, 2, 9, 5, 1]);
  });
});
