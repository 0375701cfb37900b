// A scope's condition reused per shape (issue 27): the SQL text written once per shape with the call's values bound,
// and a recent caller's condition answered again, must select exactly the rows the condition rendered per call does,
// on a real SQLite database. Values that only a naive key would confuse stay apart.
import { and, eq, getTableColumns, type SQL } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import Database from 'better-sqlite3';
import { sqliteDialect } from '../../../runtime/dialects/sqlite';
import { runSqliteOnce } from '../../../runtime/dialects/sqlite-transactions';
import { codecOf, type WhereColumns } from '../../../runtime/model/column-schema';
import type { Where } from '../../../runtime/model/options';
import { compileScope, scopeShapeOf } from '../../../runtime/sql/scope-shapes';
import { ScopedText } from '../../../runtime/sql/scoped-text';
import { compileWhere } from '../../../runtime/sql/where';

const notes = sqliteTable('notes', { id: integer('id').primaryKey(), owner: text('owner').notNull(), tag: text('tag'), rank: integer('rank').notNull() });
const client = new Database(':memory:');
client.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, owner TEXT NOT NULL, tag TEXT, rank INTEGER NOT NULL)');
const OWNERS = ['a', 'b', 'a|string1:b', 'x', '1', 'a\u0000b'];
const insert = client.prepare('INSERT INTO notes (owner, tag, rank) VALUES (?, ?, ?)');
OWNERS.forEach((owner, index) => {
  insert.run(owner, index % 2 === 0 ? 'red' : null, index);
  insert.run(owner, 'blue', index + 10);
});
const db = drizzle(client);
const columns: WhereColumns = Object.create(null);
for (const [key, column] of Object.entries(getTableColumns(notes))) columns[key] = { column, codec: codecOf(column) };

/** Ids of a page in id order, by the compiled statement: every row inside the scope. */
const page = ScopedText.of(db, (scope) => db.select({ id: notes.id }).from(notes).where(scope).orderBy(notes.id));
function ids(scope: SQL | undefined): number[] {
  return runSqliteOnce(db, page.statement({}, scope)).rows.map((row) => row[0] as number);
}

/** The same rows with the condition rendered by Drizzle, values inline: what every call did before. */
function expected(where: Where): number[] {
  return db.select({ id: notes.id }).from(notes).where(compileWhere(where, columns, sqliteDialect)).orderBy(notes.id).all().map((row) => row.id);
}

describe('scope shapes', () => {
  const scopes: Where[] = [
    ...OWNERS.map((owner) => ({ owner: { eq: owner } })),
    { owner: { eq: 'a' }, tag: { eq: 'string1:b' } },
    { owner: { in: ['a', 'b'] } },
    { owner: { in: ['a|string1:b'] } },
    { rank: { gte: 3 }, OR: [{ tag: { isNull: true } }, { tag: { eq: 'blue' } }] },
    { rank: { eq: 1 } },
    { owner: { startsWith: 'a' } },
  ];

  it.each(scopes.map((where) => [JSON.stringify(where), where]))('selects the rows of %s, the first time and again', (_name, where) => {
    const first = compileScope(where as Where, columns, sqliteDialect);
    expect(ids(first)).toEqual(expected(where as Where));
    const again = compileScope(where as Where, columns, sqliteDialect);
    expect(again).toBe(first);
    expect(ids(again)).toEqual(expected(where as Where));
  });

  it('keeps apart values a key without lengths and types would confuse', () => {
    const pairs: [Where, Where][] = [
      [{ owner: { in: ['a|string1:b', 'x'] } }, { owner: { in: ['a', 'b|string1:x'] } }],
      [{ rank: { eq: 1 } }, { rank: { eq: '1' as unknown as number } }],
      [{ owner: { eq: 'a\u0000b' } }, { owner: { eq: 'a' } }],
    ];
    for (const [left, right] of pairs) {
      const one = compileScope(left, columns, sqliteDialect);
      const other = compileScope(right, columns, sqliteDialect);
      expect(one).not.toBe(other);
      expect(ids(one)).toEqual(expected(left));
      expect(ids(other)).toEqual(expected(right));
    }
  });

  it('renders per call a condition it has no shape of: SQL of its own, a Drizzle value, an AND of two scopes', () => {
    const own = and(eq(notes.owner, 'b'), eq(notes.tag, 'blue'))!;
    expect(scopeShapeOf(own)).toBeUndefined();
    expect(ids(own)).toEqual(db.select({ id: notes.id }).from(notes).where(own).orderBy(notes.id).all().map((row) => row.id));
    const byColumn = compileScope({ owner: { eq: notes.tag } } as unknown as Where, columns, sqliteDialect)!;
    expect(scopeShapeOf(byColumn)).toBeUndefined();
    expect(ids(byColumn)).toEqual([]);
    const both = and(compileScope({ owner: { eq: 'a' } }, columns, sqliteDialect), compileScope({ tag: { eq: 'red' } }, columns, sqliteDialect))!;
    expect(ids(both)).toEqual(expected({ owner: { eq: 'a' }, tag: { eq: 'red' } }));
  });

  it('answers no condition for a scope that constrains nothing', () => {
    expect(compileScope({}, columns, sqliteDialect)).toBeUndefined();
    expect(compileScope({ AND: [] }, columns, sqliteDialect)).toBeUndefined();
  });
});
