// Entry of the scale-out tests: one replica of a public `items` resource on PostgreSQL or MariaDB (SCALE_DIALECT
// at build time, SCALE_DATABASE_URL at start), the way docs/production.md runs it behind a balancer. Through
// PgBouncer in transaction mode SCALE_STATEMENT_CACHE=off turns the statement cache off; DASHBOARD_PORT serves the
// dashboard (its /metrics for Prometheus) behind the DASHBOARD_TOKEN secret. The pool's statement_timeout: 0 is what
// docs/production.md asks behind PgBouncer, which refuses that startup parameter. disableEval: mysql2 otherwise builds
// row parsers with new Function, which the tests' `node --disallow-code-generation-from-strings` forbids.
import { drizzle as drizzleMysql } from 'drizzle-orm/mysql2';
import { int, mysqlTable, serial as mysqlSerial, varchar as mysqlVarchar } from 'drizzle-orm/mysql-core';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { integer, pgTable, serial, varchar } from 'drizzle-orm/pg-core';
import mysql from 'mysql2';
import { Pool } from 'pg';
import { crud, defineService, secret, type ServerOptions } from 'tessera-api';

const url = process.env.SCALE_DATABASE_URL;
if (url === undefined || url === '') throw new Error('SCALE_DATABASE_URL must name the database');
const isMysql = process.env.SCALE_DIALECT === 'mysql';
/** SCALE_TABLE (default so_items), the same at build time and at start: tests running side by side keep apart. */
const table = process.env.SCALE_TABLE ?? 'so_items';

const items = isMysql
  ? mysqlTable(table, { id: mysqlSerial('id').primaryKey(), title: mysqlVarchar('title', { length: 200 }).notNull(), version: int('version').notNull().default(0) })
  : pgTable(table, { id: serial('id').primaryKey(), title: varchar('title', { length: 200 }).notNull(), version: integer('version').notNull().default(0) });

const db = isMysql ? drizzleMysql(mysql.createPool({ uri: url, connectionLimit: 4, disableEval: true })) : drizzlePostgres(new Pool({ connectionString: url, max: 4, statement_timeout: 0 }));

const scale = defineService({ name: 'scale', db });
scale.resource({ name: 'items', table: items as typeof items & { id: any }, id: (items as any).id }).use(
  crud({
    access: 'public',
    fields: {
      id: { read: true, filter: ['eq', 'in'], sort: true },
      title: { read: true, create: true, update: true, filter: ['eq', 'startsWith'], sort: true },
      version: { read: true, create: true, update: true },
    },
  }),
);

const dashboardPort = process.env.DASHBOARD_PORT;
export default {
  title: 'Scale-out test',
  requestLogging: false,
  statementCache: process.env.SCALE_STATEMENT_CACHE !== 'off',
  ...(dashboardPort === undefined ? {} : { dashboard: { port: Number(dashboardPort), auth: { token: secret('DASHBOARD_TOKEN') }, historyFile: ':memory:' } }),
} satisfies ServerOptions;
