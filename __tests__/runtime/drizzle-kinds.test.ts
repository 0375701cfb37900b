// A column made by another copy of Drizzle than Tessera's (an ES module application's tables under `tessera start`
// come from Drizzle's ES module build) is judged as one of Tessera's own copy: the generator and the server decide
// the same row writer whichever copy each loaded the tables with. jest.isolateModules loads that second copy.
import { entityKind, getTableColumns, type Table } from 'drizzle-orm';
import * as mysqlCore from 'drizzle-orm/mysql-core';
import * as sqliteCore from 'drizzle-orm/sqlite-core';
import { datetimeDecoder } from '../../runtime/dialects/mysql-datetime';
import { drizzlePrototype } from '../../runtime/drizzle-kinds';
import { hasDecoder } from '../../runtime/sql/fixed-execution';

function secondCopy(): { sqlite: typeof sqliteCore; mysql: typeof mysqlCore } {
  let copy: { sqlite: typeof sqliteCore; mysql: typeof mysqlCore } | undefined;
  jest.isolateModules(() => {
    copy = { sqlite: require('drizzle-orm/sqlite-core'), mysql: require('drizzle-orm/mysql-core') };
  });
  return copy!;
}

const tables = (sqlite: typeof sqliteCore, mysql: typeof mysqlCore) => ({
  notes: sqlite.sqliteTable('notes', { id: sqlite.integer('id').primaryKey(), title: sqlite.text('title'), due: sqlite.integer('due', { mode: 'timestamp_ms' }), flag: sqlite.integer('flag', { mode: 'boolean' }) }),
  events: mysql.mysqlTable('events', { id: mysql.int('id').primaryKey(), at: mysql.datetime('at', { mode: 'date', fsp: 3 }), label: mysql.varchar('label', { length: 20 }) }),
});

describe('Drizzle classes from another copy of Drizzle', () => {
  const own = tables(sqliteCore, mysqlCore);
  const { sqlite, mysql } = secondCopy();
  const other = tables(sqlite, mysql);

  it('is a second copy indeed: its columns are not instances of the classes Tessera imports', () => {
    expect(other.notes.id).not.toBeInstanceOf(sqliteCore.SQLiteInteger);
    expect(own.notes.id).toBeInstanceOf(sqliteCore.SQLiteInteger);
  });

  it('says which columns have a decoder exactly as for columns of Tessera\'s own copy', () => {
    const decoded = (table: Table) => Object.fromEntries(Object.entries(getTableColumns(table)).map(([key, column]) => [key, hasDecoder(column)]));
    expect(decoded(other.notes)).toEqual({ id: false, title: false, due: true, flag: true });
    expect(decoded(other.notes)).toEqual(decoded(own.notes));
    expect(decoded(other.events)).toEqual({ id: true, at: true, label: false });
    expect(decoded(other.events)).toEqual(decoded(own.events));
  });

  it('gives a DATETIME column in date mode the text shortcut, and still not a subclass with a decoder of its own', () => {
    expect(datetimeDecoder(other.events.at)!('2026-11-25 08:50:00.123')).toBe('2026-11-25T08:50:00.123Z');
    expect(datetimeDecoder(other.events.label)).toBeNull();
    const custom = Object.create(other.events.at, { mapFromDriverValue: { value: (value: string) => `custom ${value}` } });
    expect(datetimeDecoder(custom)).toBeNull();
  });

  it('finds a class by its own kind only, and nothing for a value outside Drizzle', () => {
    expect(drizzlePrototype(other.notes.id, sqliteCore.SQLiteInteger[entityKind])).toBe(sqlite.SQLiteInteger.prototype);
    expect(drizzlePrototype(other.notes.id, 'MySqlDateTime')).toBeNull();
    expect(drizzlePrototype({}, 'Column')).toBeNull();
  });
});
