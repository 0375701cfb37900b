// Setup mistakes (spec §7, §2.3-2.4, CONTRACT §2-§3) throw at definition time, naming the service,
// resource and option at fault; an access object without authorize rejects every call with FORBIDDEN.
import { clearRegistry, createServer, crud, CRUD_ACTION_NAMES, defineService, type CrudOptions, type Service } from 'tessera-api';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import mysql from 'mysql2/promise';
import { openDatabase, type DialectName, type TestDatabase } from '../helpers/databases';
import * as mysqlSchema from '../helpers/schemas/mysql';
import * as postgresSchema from '../helpers/schemas/postgres';
import * as sqliteSchema from '../helpers/schemas/sqlite';

const SCHEMAS = { sqlite: sqliteSchema, mysql: mysqlSchema, postgres: postgresSchema };

/** A policy that is valid for the notes table, to which each case adds one mistake. */
const NOTES_FIELDS = {
  id: { read: true, filter: ['eq'] },
  title: { read: true, create: true, update: true, filter: ['eq', 'contains'], sort: true },
} satisfies CrudOptions['fields'];

export function setupErrorsSuite(dialect: DialectName): void {
  describe('setup errors', () => {
    let database: TestDatabase;
    let shop: Service;

    beforeAll(async () => {
      database = await openDatabase(dialect);
      await database.reset();
    });

    afterAll(async () => {
      clearRegistry();
      await database?.close();
    });

    beforeEach(() => {
      clearRegistry();
      shop = defineService({ name: 'shop', db: database.db });
    });

    /** Declares shop.notes with these crud options (cast: each case is a mistake the types may also catch). */
    function notesWith(options: Record<string, unknown>) {
      const { notes } = database.tables;
      return shop.resource({ name: 'notes', table: notes, id: notes.id }).use(crud(options as unknown as CrudOptions));
    }

    it('throws when a fields key is not a column, naming service, resource, field and table', () => {
      expect(() => notesWith({ access: 'public', fields: { ...NOTES_FIELDS, titel: { read: true } } })).toThrow(
        /shop\.notes: fields\.titel is not a column of table "t_notes"/,
      );
    });

    it('throws when the primary key has update: true, naming the field', () => {
      expect(() => notesWith({ access: 'public', fields: { ...NOTES_FIELDS, id: { read: true, update: true } } })).toThrow(
        /shop\.notes: fields\.id\.update: the primary key must not be updatable/,
      );
    });

    it.each(['contains', 'startsWith', 'endsWith'])('throws when %s is configured on a non-string column, naming the field and operator', (operator) => {
      const { items } = database.tables;
      const declare = () =>
        shop.resource({ name: 'items', table: items, id: items.id }).use(crud({ access: 'public', fields: { price: { read: true, filter: [operator as 'contains'] } } }));
      expect(declare).toThrow(new RegExp(`shop\\.items: fields\\.price\\.filter: ${operator} requires a string column`));
    });

    it('throws when crud has no access', () => {
      expect(() => notesWith({ fields: NOTES_FIELDS })).toThrow(/shop\.notes: crud access is required/);
    });

    it('throws for an unknown filter operator, naming it', () => {
      expect(() => notesWith({ access: 'public', fields: { title: { read: true, filter: ['like'] } } })).toThrow(
        /shop\.notes: fields\.title\.filter: "like" is not a filter operator/,
      );
    });

    it('throws for an unknown crud option, naming it', () => {
      expect(() => notesWith({ access: 'public', fields: NOTES_FIELDS, pageSize: 5 })).toThrow(/shop\.notes: pageSize is not a crud option/);
    });

    it('throws for an unknown field policy option, naming it', () => {
      expect(() => notesWith({ access: 'public', fields: { title: { read: true, write: true } } })).toThrow(
        /shop\.notes: fields\.title\.write is not a field policy option/,
      );
    });

    it('throws for an unknown operations key, naming it', () => {
      expect(() => notesWith({ access: 'public', fields: NOTES_FIELDS, operations: { remove: false } })).toThrow(
        /shop\.notes: operations\.remove is not a crud operation/,
      );
    });

    it('throws for a routes entry of a switched-off operation', () => {
      expect(() => notesWith({ access: 'public', fields: NOTES_FIELDS, operations: { delete: false }, routes: { delete: { path: '/remove/:id' } } })).toThrow(
        /shop\.notes: routes\.delete is set, but operations\.delete is off/,
      );
    });

    it('throws for a get route path without :id', () => {
      expect(() => notesWith({ access: 'public', fields: NOTES_FIELDS, routes: { get: { path: '/one' } } })).toThrow(
        /shop\.notes: routes\.get\.path "\/one" must contain the segment ":id"/,
      );
    });

    // One crud() per test: the resource stays declared on the service even when its plugin throws.
    it('throws for an unknown key beside path in a route setting, naming it', () => {
      expect(() => notesWith({ access: 'public', fields: NOTES_FIELDS, routes: { list: { path: '/search', scop: () => undefined } } })).toThrow(
        /shop\.notes: routes\.list\.scop is not a route setting \(path, scope\)/,
      );
    });

    it('throws for an unknown key alone in a route setting, naming it', () => {
      expect(() => notesWith({ access: 'public', fields: NOTES_FIELDS, routes: { count: { method: 'GET' } } })).toThrow(
        /shop\.notes: routes\.count\.method is not a route setting \(path, scope\)/,
      );
    });

    it('throws for a route scope that is not a function', () => {
      expect(() => notesWith({ access: 'public', fields: NOTES_FIELDS, routes: { list: { scope: { title: { eq: 'x' } } } } })).toThrow(
        /shop\.notes: routes\.list\.scope must be a function/,
      );
    });

    it('throws for a route path that is not a string', () => {
      expect(() => notesWith({ access: 'public', fields: NOTES_FIELDS, routes: { list: { path: 5 } } })).toThrow(/shop\.notes: routes\.list\.path must be a string/);
    });

    it('throws for a route setting that is neither false nor an object', () => {
      expect(() => notesWith({ access: 'public', fields: NOTES_FIELDS, routes: { list: '/search' } })).toThrow(/shop\.notes: routes\.list must be false or \{ path\?, scope\? \}/);
    });

    it('accepts a route scope with or without a path: the route keeps its own path when none is given', () => {
      const notes = notesWith({ access: 'public', fields: NOTES_FIELDS, routes: { list: { scope: () => undefined }, get: { path: '/:id/one', scope: () => undefined } } });
      expect(notes.routes.map((route) => `${route.method} ${route.path}`)).toEqual(expect.arrayContaining(['POST /notes/query', 'GET /notes/:id/one']));
    });

    it('throws when defaultLimit is above maxLimit', () => {
      expect(() => notesWith({ access: 'public', fields: NOTES_FIELDS, defaultLimit: 50, maxLimit: 10 })).toThrow(
        /shop\.notes: defaultLimit \(50\) is above maxLimit \(10\)/,
      );
    });

    it('throws when a table of another dialect is given to a service', () => {
      const other = dialect === 'sqlite' ? 'postgres' : 'sqlite';
      const foreign = SCHEMAS[other].notes;
      expect(() => shop.resource({ name: 'notes', table: foreign, id: foreign.id })).toThrow(new RegExp(`shop\\.notes: table is not a ${dialect} table`));
    });

    it('throws when a resource is declared twice', () => {
      notesWith({ access: 'public', fields: NOTES_FIELDS });
      expect(() => notesWith({ access: 'public', fields: NOTES_FIELDS })).toThrow(/shop: resource "notes" is declared twice/);
    });

    if (dialect === 'mysql') {
      // Only mysql2 turns BIGINT into lossy JS numbers; better-sqlite3 and pg hand bigints over whole.
      it('throws for a bigint field when the mysql2 client lacks supportBigNumbers', async () => {
        const pool = mysql.createPool({ uri: process.env.TESSERA_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test' });
        try {
          clearRegistry();
          const lossy = defineService({ name: 'lossy', db: drizzleMysql(pool, { mode: 'default' }) });
          const { readings } = database.tables;
          expect(() =>
            lossy.resource({ name: 'readings', table: readings, id: readings.id }).use(crud({ access: 'public', fields: { serial: { read: true } } })),
          ).toThrow('lossy.readings: fields.serial: bigint column "serial" needs the mysql2 option supportBigNumbers: true');
        } finally {
          await pool.end();
        }
      });
    }

    it('createServer throws for two routes with the same method and path, naming both actions', () => {
      notesWith({ access: 'public', fields: NOTES_FIELDS, routes: { list: { path: '/count' } } });
      expect(() => createServer({ services: [shop], requestLogging: false })).toThrow(
        /^(?=.*POST \/api\/notes\/count)(?=.*shop\.notes\.list)(?=.*shop\.notes\.count)/,
      );
    });

    describe('access without authorize', () => {
      it('rejects every action with FORBIDDEN 403 and writes nothing', async () => {
        const notes = notesWith({ access: {}, fields: NOTES_FIELDS, operations: { createMany: true, updateMany: true, deleteMany: true, upsert: true } });
        const id = '00000000-0000-4000-8000-000000000000';
        const inputs: Record<(typeof CRUD_ACTION_NAMES)[number], unknown> = {
          list: { limit: 1 },
          get: { id },
          findOne: {},
          create: { title: 'x' },
          update: { id, data: { title: 'y' } },
          delete: { id },
          count: {},
          exists: {},
          createMany: { items: [{ title: 'x' }] },
          updateMany: { where: { title: { eq: 'x' } }, data: { title: 'y' } },
          deleteMany: { where: { title: { eq: 'x' } } },
          upsert: { id, data: { title: 'x' } },
        };
        for (const action of CRUD_ACTION_NAMES) {
          const call = ((notes as unknown as Record<string, unknown>)[action] as (call: { input: unknown }) => Promise<unknown>)({ input: inputs[action] });
          await expect(call).rejects.toMatchObject({ code: 'FORBIDDEN', status: 403 });
        }
        expect(await database.raw('SELECT * FROM t_notes')).toEqual([]);
      });
    });
  });
}
