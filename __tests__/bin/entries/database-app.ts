// An entry on MariaDB/MySQL or PostgreSQL chosen at run time (issue 32's start-up and hung-database tests):
// TESSERA_TEST_DIALECT (mysql | postgres), TESSERA_TEST_DATABASE_URL, and optionally TESSERA_TEST_TIMEOUTS (JSON,
// the service's `timeouts`) and TESSERA_TEST_GRACE_MS (shutdownGracePeriod). One bundle serves both dialects.
// The table h_notes is created by the test. disableEval: mysql2 otherwise builds row parsers with new Function.
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { int, mysqlTable, varchar } from 'drizzle-orm/mysql-core';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { pgTable, serial, varchar as pgVarchar } from 'drizzle-orm/pg-core';
import mysql from 'mysql2/promise';
import { Pool } from 'pg';
import { crud, defineService, type ServerOptions } from 'tessera-api';

const url = process.env.TESSERA_TEST_DATABASE_URL ?? '';
const timeouts = process.env.TESSERA_TEST_TIMEOUTS === undefined ? undefined : JSON.parse(process.env.TESSERA_TEST_TIMEOUTS);
const isMysql = process.env.TESSERA_TEST_DIALECT === 'mysql';

const notes = isMysql
  ? mysqlTable('h_notes', { id: int('id').primaryKey().autoincrement(), title: varchar('title', { length: 200 }).notNull() })
  : pgTable('h_notes', { id: serial('id').primaryKey(), title: pgVarchar('title', { length: 200 }).notNull() });
const db = isMysql ? drizzleMysql(mysql.createPool({ uri: url, connectionLimit: 4, disableEval: true }), { mode: 'default' }) : drizzlePostgres(new Pool({ connectionString: url, max: 4 }));

const service = defineService({ name: 'hang', db, timeouts });
service.resource({ name: 'notes', table: notes as any, id: (notes as any).id }).use(
  crud({ access: 'public', fields: { id: { read: true, sort: true }, title: { read: true, create: true, filter: ['eq'] } } }),
);

const grace = process.env.TESSERA_TEST_GRACE_MS;
export default { title: 'Database test', requestLogging: false, ...(grace === undefined ? {} : { shutdownGracePeriod: Number(grace) }) } satisfies ServerOptions;
