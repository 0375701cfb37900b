// The ordering rule every list and findOne path reads (issue 18): orderBy as given, then the primary key in the
// direction of the last entry, ascending without orderBy, and no tiebreaker when the key is already sorted on.
import { getTableColumns } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import Database from 'better-sqlite3';
import { compileOrderBy, tiebreakDirection, type OrderByEntry } from '../../../runtime/sql/order-by';

const tasks = sqliteTable('tasks', { id: integer('id').primaryKey(), title: text('title'), rank: integer('rank') });
const db = drizzle(new Database(':memory:'));

/** The ORDER BY clause drizzle writes for `orderBy`. */
function orderClause(orderBy: OrderByEntry[] | undefined): string {
  const query = db.select().from(tasks).orderBy(...compileOrderBy(orderBy, getTableColumns(tasks), 'id'));
  return query.toSQL().sql.replace(/^.* order by /, '');
}

describe('compileOrderBy', () => {
  it.each([
    [undefined, '"tasks"."id" asc'],
    [[], '"tasks"."id" asc'],
    [[{ field: 'title' }], '"tasks"."title" asc, "tasks"."id" asc'],
    [[{ field: 'title', direction: 'desc' }], '"tasks"."title" desc, "tasks"."id" desc'],
    [[{ field: 'title', direction: 'desc' }, { field: 'rank', direction: 'asc' }], '"tasks"."title" desc, "tasks"."rank" asc, "tasks"."id" asc'],
    [[{ field: 'title', direction: 'asc' }, { field: 'rank', direction: 'desc' }], '"tasks"."title" asc, "tasks"."rank" desc, "tasks"."id" desc'],
    [[{ field: 'id', direction: 'desc' }, { field: 'title' }], '"tasks"."id" desc, "tasks"."title" asc'],
  ] as [OrderByEntry[] | undefined, string][])('orders %j as %s', (orderBy, clause) => {
    expect(orderClause(orderBy)).toBe(clause);
  });

  it('names the tiebreaker direction the cached and uncached paths share', () => {
    expect([tiebreakDirection(undefined), tiebreakDirection([{ field: 'a', direction: 'desc' }, { field: 'b' }]), tiebreakDirection([{ field: 'a', direction: 'desc' }])]).toEqual(['asc', 'asc', 'desc']);
  });
});
