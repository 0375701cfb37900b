// Bundle test entry on MariaDB/MySQL (the test creates b_notes). disableEval: mysql2 otherwise builds row
// parsers with new Function, which `node --disallow-code-generation-from-strings` forbids.
import { drizzle } from 'drizzle-orm/mysql2';
import { int, mysqlTable, text, varchar } from 'drizzle-orm/mysql-core';
import mysql from 'mysql2/promise';
import { defineBundleApp } from './bundle-app';

const notes = mysqlTable('b_notes', {
  id: int('id').primaryKey().autoincrement(),
  title: varchar('title', { length: 200 }).notNull(),
  content: text('content'),
});

const url = process.env.TESSERA_TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';
const pool = mysql.createPool({ uri: url, connectionLimit: 2, disableEval: true });

export default defineBundleApp(drizzle(pool, { mode: 'default' }), notes);
