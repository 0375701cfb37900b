// The database schema as the server finds it, on SQLite, MariaDB and PostgreSQL: checkDatabaseSchema names a
// missing table or column and what to run before anything listens, and a database error at request time is
// logged with its driver code and a reason that holds no value (the caller still gets INTERNAL_ERROR).
import type { AddressInfo } from 'node:net';
import { int as mysqlInt, mysqlTable, text as mysqlText } from 'drizzle-orm/mysql-core';
import { integer as pgInteger, pgTable, text as pgText } from 'drizzle-orm/pg-core';
import { integer as sqliteInteger, sqliteTable, text as sqliteText } from 'drizzle-orm/sqlite-core';
import { checkDatabaseSchema, clearRegistry, createServer, crud, defineService, SetupError } from 'tessera-api';
import { DIALECTS, openDatabase, type DialectName, type TestDatabase } from '../helpers/databases';
import { request } from '../helpers/request';

const TABLES = {
  sqlite: sqliteTable('sc_items', { id: sqliteInteger('id').primaryKey(), name: sqliteText('name').notNull(), note: sqliteText('sc_note') }),
  mysql: mysqlTable('sc_items', { id: mysqlInt('id').primaryKey(), name: mysqlText('name').notNull(), note: mysqlText('sc_note') }),
  postgres: pgTable('sc_items', { id: pgInteger('id').primaryKey(), name: pgText('name').notNull(), note: pgText('sc_note') }),
};

/** A secret a row holds, which no log line may show. */
const STORED_VALUE = 'stored-value-4d1f';

describe.each<DialectName>(DIALECTS)('the database schema on %s', (dialect) => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await openDatabase(dialect, 'schema_check');
  });
  afterAll(async () => {
    clearRegistry();
    await database.close();
  });
  beforeEach(async () => {
    clearRegistry();
    await database.raw('DROP TABLE IF EXISTS sc_items');
  });

  function defineItems() {
    const service = defineService({ name: 'shop', db: database.db });
    const table = TABLES[dialect];
    return service.resource({ name: 'items', table, id: table.id }).use(
      crud({ access: 'public', fields: { id: { read: true, create: true }, name: { read: true, create: true } } }),
    );
  }

  it('finds every table and column of the resources', async () => {
    await database.raw('CREATE TABLE sc_items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, sc_note TEXT)');
    defineItems();
    await expect(checkDatabaseSchema()).resolves.toBeUndefined();
  });

  it('names a missing table and what to run', async () => {
    defineItems();
    const failure = checkDatabaseSchema();
    await expect(failure).rejects.toThrow(SetupError);
    await expect(failure).rejects.toThrow('shop.items: table "sc_items" does not exist: create them with drizzle-kit (npx drizzle-kit push, or drizzle-kit generate then migrate)');
  });

  it('names the missing columns of a table', async () => {
    await database.raw('CREATE TABLE sc_items (id INTEGER PRIMARY KEY, other TEXT)');
    defineItems();
    await expect(checkDatabaseSchema()).rejects.toThrow('shop.items: table "sc_items" has no column "name", "sc_note": create them with drizzle-kit');
  });

  it('logs a database error at request time with its code and a value-free reason, and answers INTERNAL_ERROR', async () => {
    await database.raw('CREATE TABLE sc_items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, sc_note TEXT)');
    await database.raw(`INSERT INTO sc_items (id, name) VALUES (1, '${STORED_VALUE}')`);
    defineItems();
    const lines: string[] = [];
    const log = (line: string) => void lines.push(line);
    const app = createServer({ requestLogging: { logger: log }, errorLogger: log, docs: false });
    const server = app.listen(0);
    try {
      await new Promise((resolve) => server.once('listening', resolve));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect((await request(`${url}/api/items/1`)).status).toBe(200);
      await database.raw('DROP TABLE sc_items');
      const answer = await request(`${url}/api/items/1`);
      expect(answer).toMatchObject({ status: 500, body: { error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } } });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    const reason = { sqlite: 'SQLITE_ERROR: no such table: sc_items', mysql: /1146: no such table: \w+\.sc_items/, postgres: '42P01: no such table: sc_items' }[dialect];
    const logged = lines.find((line) => line.startsWith('INTERNAL_ERROR'));
    expect(logged).toMatch(/^INTERNAL_ERROR GET \/api\/items\/1: DatabaseError: /);
    expect(logged).toMatch(reason);
    expect(lines.join('\n')).not.toContain(STORED_VALUE);
    expect(lines.join('\n')).not.toMatch(/select/i);
  });
});
