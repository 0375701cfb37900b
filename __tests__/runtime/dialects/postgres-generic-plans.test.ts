// A cached page on PostgreSQL keeps one plan (runtime/dialects/postgres.ts, `inlinesLimit`): PostgreSQL plans a named
// statement's first five executions with their values, then runs its generic plan only if that looks no dearer than
// those. With the LIMIT bound as `$n` it never does, and plans the page again at every call; written into the SQL, the
// generic plan wins. Read off pg_prepared_statements on the pool's one connection, on a table large enough for the
// planner to tell the plans apart.
import { drizzle } from 'drizzle-orm/node-postgres';
import { integer, pgTable, text } from 'drizzle-orm/pg-core';
import { Pool } from 'pg';
import { crud, defineService } from 'tessera-api';
import { clearRegistry } from '../../helpers/test-app';

const POSTGRES_URL = process.env.TESSERA_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = 'generic_plans';
const ROWS = 5000;
const articles = pgTable('articles', { id: integer('id').primaryKey(), title: text('title').notNull() });

describe('a cached page on PostgreSQL', () => {
  let pool: Pool;

  beforeAll(async () => {
    const admin = new Pool({ connectionString: POSTGRES_URL, max: 1 });
    await admin.query(`DROP SCHEMA IF EXISTS ${SCHEMA} CASCADE`);
    await admin.query(`CREATE SCHEMA ${SCHEMA}`);
    await admin.query(`CREATE TABLE ${SCHEMA}.articles (id integer PRIMARY KEY, title text NOT NULL)`);
    await admin.query(`INSERT INTO ${SCHEMA}.articles SELECT n, 'Article ' || n FROM generate_series(1, ${ROWS}) n`);
    await admin.query(`ANALYZE ${SCHEMA}.articles`);
    await admin.end();
    // One connection: every statement is prepared, and read back, in the same session.
    pool = new Pool({ connectionString: POSTGRES_URL, max: 1, options: `-c search_path=${SCHEMA}` });
  });

  afterAll(async () => {
    await pool.query(`DROP SCHEMA ${SCHEMA} CASCADE`);
    await pool.end();
    clearRegistry();
  });

  it('is planned once, then run on its generic plan, whatever the filter values', async () => {
    const service = defineService({ name: 'plans', db: drizzle(pool) });
    const resource = service.resource({ name: 'articles', table: articles, id: articles.id }).use(
      crud({ access: 'public', fields: { id: { read: true, filter: ['gte'], sort: true }, title: { read: true } } }),
    );
    const CALLS = 12;
    for (let call = 0; call < CALLS; call++) {
      const from = 1 + call * 300;
      const page = (await resource.list({ input: { where: { id: { gte: from } }, limit: 20 } })) as { items: { id: number }[] };
      expect(page.items.map((row) => row.id)).toEqual(Array.from({ length: 20 }, (_, index) => from + index));
    }

    const { rows } = await pool.query(`SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements WHERE statement LIKE '%"articles"%>=%'`);
    expect(rows).toHaveLength(1);
    expect(rows[0].statement).toMatch(/limit 20\b/i);
    // PostgreSQL's own rule: five custom plans to judge the generic one by, then the generic plan for the rest.
    expect({ generic: Number(rows[0].generic_plans), custom: Number(rows[0].custom_plans) }).toEqual({ generic: CALLS - 5, custom: 5 });
  });
});
