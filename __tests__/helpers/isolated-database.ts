// The test tables in a namespace of their own, for a test file that runs beside the crud suites (jest runs
// files in parallel, and those use the same table names): a sibling database on MySQL, a schema on PostgreSQL.
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import mysql from 'mysql2/promise';
import { Pool } from 'pg';
import { openDatabase, type DialectName, type TestDatabase } from './databases';
import * as mysqlSchema from './schemas/mysql';
import * as postgresSchema from './schemas/postgres';

const MYSQL_URL = process.env.TESSERA_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const POSTGRES_URL = process.env.TESSERA_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Opens the test tables in namespace `name` (`[a-z_]+`): in-memory SQLite is private anyway. */
export async function openIsolatedDatabase(dialect: DialectName, name: string): Promise<TestDatabase> {
  if (!/^[a-z_]+$/.test(name)) throw new Error(`namespace "${name}" must be lower-case letters and _`);
  if (dialect === 'sqlite') return openDatabase('sqlite');
  if (dialect === 'mysql') {
    const url = new URL(MYSQL_URL);
    const database = `${url.pathname.slice(1)}_${name}`;
    const admin = await mysql.createConnection({ uri: MYSQL_URL });
    await admin.query(`CREATE DATABASE IF NOT EXISTS \`${database}\``);
    await admin.end();
    url.pathname = `/${database}`;
    const pool = mysql.createPool({ uri: url.toString(), connectionLimit: 5, supportBigNumbers: true });
    const { DDL, notes, items, categories, readings } = mysqlSchema;
    return {
      dialect,
      db: drizzleMysql(pool, { mode: 'default' }),
      tables: { notes, items, categories, readings },
      reset: async () => {
        for (const statement of DDL) await pool.query(statement);
      },
      raw: async (sqlText) => (await pool.query(sqlText))[0] as unknown[],
      close: () => pool.end(),
    };
  }
  const admin = new Pool({ connectionString: POSTGRES_URL, max: 1 });
  await admin.query(`CREATE SCHEMA IF NOT EXISTS ${name}`);
  await admin.end();
  // Unqualified table names resolve in the schema only: the suites' tables in `public` are never touched.
  const pool = new Pool({ connectionString: POSTGRES_URL, max: 5, options: `-c search_path=${name}` });
  const { DDL, notes, items, categories, readings } = postgresSchema;
  return {
    dialect,
    db: drizzlePostgres(pool),
    tables: { notes, items, categories, readings },
    reset: async () => {
      for (const statement of DDL) await pool.query(statement);
    },
    raw: async (sqlText) => (await pool.query(sqlText)).rows,
    close: () => pool.end(),
  };
}
