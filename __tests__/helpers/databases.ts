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
  tables: { notes: any; items: any; categories: any; readings: any };
  /** Drops and recreates the test tables, and restarts the deterministic ids and clock of their default functions. */
  reset(): Promise<void>;
  /** Runs raw SQL (for checks that bypass Tessera). */
  raw(sqlText: string): Promise<unknown[]>;
  close(): Promise<void>;
}

const MYSQL_URL = process.env.TESSERA_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const POSTGRES_URL = process.env.TESSERA_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export async function openDatabase(dialect: DialectName): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const client = new Database(':memory:');
    client.pragma('foreign_keys = ON');
    const { DDL, notes, items, categories, readings } = sqliteSchema;
    return {
      dialect,
      db: drizzleSqlite(client),
      tables: { notes, items, categories, readings },
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
  if (dialect === 'mysql') {
    // supportBigNumbers: Tessera refuses bigint fields on a mysql2 client without it (values would lose digits).
    const pool = mysql.createPool({ uri: MYSQL_URL, connectionLimit: 5, supportBigNumbers: true });
    const { DDL, notes, items, categories, readings } = mysqlSchema;
    return {
      dialect,
      db: drizzleMysql(pool, { mode: 'default' }),
      tables: { notes, items, categories, readings },
      reset: async () => {
        restartTestDefaults();
        for (const statement of DDL) await pool.query(statement);
      },
      raw: async (sqlText) => (await pool.query(sqlText))[0] as unknown[],
      close: () => pool.end(),
    };
  }
  const pool = new Pool({ connectionString: POSTGRES_URL, max: 5 });
  const { DDL, notes, items, categories, readings } = postgresSchema;
  return {
    dialect,
    db: drizzlePostgres(pool),
    tables: { notes, items, categories, readings },
    reset: async () => {
      restartTestDefaults();
      for (const statement of DDL) await pool.query(statement);
    },
    raw: async (sqlText) => (await pool.query(sqlText)).rows,
    close: () => pool.end(),
  };
}
