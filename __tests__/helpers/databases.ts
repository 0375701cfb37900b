// Opens a real database per dialect for the test suites: in-memory SQLite, the local MariaDB and
// PostgreSQL (override with TESSERA_TEST_MYSQL_URL / TESSERA_TEST_POSTGRES_URL). No dialect is ever skipped.
import Database from 'better-sqlite3';
import { drizzle as drizzleSqlite } from 'drizzle-orm/better-sqlite3';
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import mysql from 'mysql2/promise';
import { Pool } from 'pg';
import * as mysqlSchema from './schemas/mysql';
import * as postgresSchema from './schemas/postgres';
import * as sqliteSchema from './schemas/sqlite';
import { restartTestDefaults } from './schemas/test-defaults';

export type DialectName = 'sqlite' | 'mysql' | 'postgres';
export const DIALECTS: readonly DialectName[] = ['sqlite', 'mysql', 'postgres'];

export interface TestDatabase {
  dialect: DialectName;
  db: any;
  tables: { notes: any; items: any; categories: any; readings: any; counters: any; kinds: any };
  /** Drops and recreates the test tables, and restarts the deterministic ids and clock of their default functions. */
  reset(): Promise<void>;
  /** Runs raw SQL (for checks that bypass Tessera). */
  raw(sqlText: string): Promise<unknown[]>;
  close(): Promise<void>;
}

export const MYSQL_URL = process.env.TESSERA_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const POSTGRES_URL = process.env.TESSERA_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Opens the test tables. `namespace` (`[a-z_]+`) puts them apart, for a test file that runs beside the crud
 * suites (jest runs files in parallel, on the same table names): a sibling database on MySQL, a schema on
 * PostgreSQL; in-memory SQLite is private anyway.
 */
export async function openDatabase(dialect: DialectName, namespace?: string): Promise<TestDatabase> {
  if (namespace !== undefined && !/^[a-z_]+$/.test(namespace)) throw new Error(`namespace "${namespace}" must be lower-case letters and _`);
  if (dialect === 'sqlite') {
    const client = new Database(':memory:');
    client.pragma('foreign_keys = ON');
    const { DDL, notes, items, categories, readings, counters, kinds } = sqliteSchema;
    return {
      dialect,
      db: drizzleSqlite(client),
      tables: { notes, items, categories, readings, counters, kinds },
      reset: async () => {
        restartTestDefaults();
        for (const statement of DDL) client.exec(statement);
      },
      raw: async (sqlText) => {
        const statement = client.prepare(sqlText);
        return statement.reader ? statement.all() : [statement.run()];
      },
      close: async () => {
        client.close();
      },
    };
  }
  if (dialect === 'mysql') return openMysql(namespace === undefined ? MYSQL_URL : await mysqlNamespace(namespace));
  if (namespace !== undefined) await createPostgresSchema(namespace);
  // Unqualified table names resolve in the namespace's schema only: the suites' tables in `public` are never touched.
  return openPostgres(POSTGRES_URL, namespace === undefined ? {} : { options: `-c search_path=${namespace}` });
}

/** The test tables on a MariaDB or PostgreSQL server given by URL (a test's private server). */
export function openDatabaseAt(dialect: 'mysql' | 'postgres', url: string): TestDatabase {
  return dialect === 'mysql' ? openMysql(url) : openPostgres(url, {});
}

/** A sibling database `<db>_<namespace>`, created when missing; answers its URL. */
async function mysqlNamespace(namespace: string): Promise<string> {
  const url = new URL(MYSQL_URL);
  url.pathname = `/${url.pathname.slice(1)}_${namespace}`;
  const admin = await mysql.createConnection({ uri: MYSQL_URL });
  await admin.query(`CREATE DATABASE IF NOT EXISTS \`${url.pathname.slice(1)}\``);
  await admin.end();
  return url.toString();
}

async function createPostgresSchema(namespace: string): Promise<void> {
  const admin = new Pool({ connectionString: POSTGRES_URL, max: 1 });
  await admin.query(`CREATE SCHEMA IF NOT EXISTS ${namespace}`);
  await admin.end();
}

function openMysql(uri: string): TestDatabase {
  // supportBigNumbers: Tessera refuses bigint fields on a mysql2 client without it (values would lose digits).
  const pool = mysql.createPool({ uri, connectionLimit: 5, supportBigNumbers: true });
  const { DDL, notes, items, categories, readings, counters, kinds } = mysqlSchema;
  return {
    dialect: 'mysql',
    db: drizzleMysql(pool, { mode: 'default' }),
    tables: { notes, items, categories, readings, counters, kinds },
    reset: async () => {
      restartTestDefaults();
      for (const statement of DDL) await pool.query(statement);
    },
    raw: async (sqlText) => (await pool.query(sqlText))[0] as unknown[],
    close: () => pool.end(),
  };
}

function openPostgres(connectionString: string, options: { options?: string }): TestDatabase {
  const pool = new Pool({ connectionString, max: 5, ...options });
  const { DDL, notes, items, categories, readings, counters, kinds } = postgresSchema;
  return {
    dialect: 'postgres',
    db: drizzlePostgres(pool),
    tables: { notes, items, categories, readings, counters, kinds },
    reset: async () => {
      restartTestDefaults();
      for (const statement of DDL) await pool.query(statement);
    },
    raw: async (sqlText) => (await pool.query(sqlText)).rows,
    close: () => pool.end(),
  };
}
