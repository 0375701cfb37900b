// A built bundle run as in production on SQLite, MariaDB and PostgreSQL, with code generation from strings
// disallowed: it serves real requests, under a preload that exits if the generator or a build tool loads.
import fs from 'node:fs';
import path from 'node:path';
import mysql from 'mysql2/promise';
import { Client } from 'pg';
import { BUNDLE_NODE_FLAGS, build, MYSQL_URL, POSTGRES_URL, startBundle, temporaryFolder } from '../helpers/bundles';
import { freePort } from '../helpers/free-port';
import { request } from '../helpers/request';
import { runNode, type RunningCli } from '../helpers/spawn-cli';

type DialectName = 'sqlite' | 'mysql' | 'postgres';

/** Table b_notes of the bundle entries (the sqlite entry creates its own in memory). */
const CREATE_TABLE: Record<Exclude<DialectName, 'sqlite'>, string> = {
  mysql: 'CREATE TABLE b_notes (id INT AUTO_INCREMENT PRIMARY KEY, title VARCHAR(200) NOT NULL, content TEXT)',
  postgres: 'CREATE TABLE b_notes (id SERIAL PRIMARY KEY, title VARCHAR(200) NOT NULL, content TEXT)',
};

const PLACEHOLDERS: Record<DialectName, RegExp> = { sqlite: /= \? limit 1;/, mysql: /= \? limit 1;/, postgres: /= \$1 limit 1;/ };

async function recreateTable(dialect: DialectName): Promise<void> {
  if (dialect === 'mysql') {
    const connection = await mysql.createConnection({ uri: MYSQL_URL });
    await connection.query('DROP TABLE IF EXISTS b_notes');
    await connection.query(CREATE_TABLE.mysql);
    await connection.end();
  } else if (dialect === 'postgres') {
    const client = new Client({ connectionString: POSTGRES_URL });
    await client.connect();
    await client.query('DROP TABLE IF EXISTS b_notes');
    await client.query(CREATE_TABLE.postgres);
    await client.end();
  }
}

describe.each<DialectName>(['sqlite', 'mysql', 'postgres'])('a bundle on %s', (dialect) => {
  const folder = temporaryFolder(`bundle-${dialect}`);
  let out: string;
  let server: RunningCli;
  let api: string;

  beforeAll(async () => {
    out = path.join(folder.path, 'dist');
    await recreateTable(dialect);
    await build(`__tests__/bin/entries/bundle-${dialect}.ts`, out);
    server = await startBundle(out, { PORT: String(await freePort()) });
    api = `${server.url}/api`;
  }, 90_000);

  afterAll(async () => {
    await server?.stop();
  });

  it('creates, lists, reads, updates and deletes a row through the compiled handlers', async () => {
    const created = await request(`${api}/notes`, { method: 'POST', body: { title: 'first', content: 'body' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), title: 'first', content: 'body' });
    const id = created.body.id as number;

    const listed = await request(`${api}/notes/query`, { method: 'POST', body: {} });
    expect(listed).toMatchObject({ status: 200, body: { items: [{ id, title: 'first', content: 'body' }] } });
    const filtered = await request(`${api}/notes/query`, { method: 'POST', body: { where: { title: { contains: 'irs' } }, includeTotal: true } });
    expect(filtered).toMatchObject({ status: 200, body: { items: [{ id }], total: 1 } });

    expect(await request(`${api}/notes/${id}`)).toMatchObject({ status: 200, body: { id, title: 'first', content: 'body' } });
    expect(await request(`${api}/notes/${id}?select=title`)).toMatchObject({ status: 200, body: { title: 'first' } });

    const updated = await request(`${api}/notes/${id}`, { method: 'PATCH', body: { title: 'second' } });
    expect(updated).toMatchObject({ status: 200, body: { id, title: 'second', content: 'body' } });

    expect(await request(`${api}/notes/${id}`, { method: 'DELETE' })).toMatchObject({ status: 200, body: { success: true } });
    const gone = await request(`${api}/notes/${id}`);
    expect(gone).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
  });

  it('answers 400 VALIDATION_ERROR naming the field, from the ahead-of-time validator', async () => {
    const answer = await request(`${api}/notes`, { method: 'POST', body: { title: 'x', internal: 'no' } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: '/internal' }] });
    const tooMany = await request(`${api}/notes/query`, { method: 'POST', body: { limit: 1000 } });
    expect(tooMany).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_ERROR', details: [{ path: '/limit' }] } } });
  });

  it('runs a custom service action with its validated input', async () => {
    expect(await request(`${api}/bundle/echo`, { method: 'POST', body: { text: 'hi' } })).toMatchObject({ status: 200, body: { text: 'hi' } });
    const invalid = await request(`${api}/bundle/echo`, { method: 'POST', body: { text: 1 } });
    expect(invalid).toMatchObject({ status: 400, body: { error: { code: 'VALIDATION_ERROR' } } });
  });

  it('serves the OpenAPI document the bundle holds as openapi.json', async () => {
    const served = await request(`${server.url}/openapi.json`);
    expect(served.status).toBe(200);
    expect(served.body).toEqual(JSON.parse(fs.readFileSync(path.join(out, 'openapi.json'), 'utf8')));
  });

  it(`records the prepared statements with ${dialect}'s placeholders`, () => {
    const statements = fs.readFileSync(path.join(out, `statements/bundle.notes.${dialect}.sql`), 'utf8');
    expect(statements).toContain('-- name: getById\n-- params: [":id"]\n');
    // SQLite and PostgreSQL write the page's LIMIT into the SQL (a bound one recompiles or replans the statement at
    // every execution), and the first page, the one prepared at start, has no OFFSET.
    expect(statements).toContain(dialect === 'mysql' ? '-- name: listPage\n-- params: [":limit",":offset"]\n' : '-- name: listPage\n-- params: []\n');
    expect(statements).toMatch(PLACEHOLDERS[dialect]);
  });
});

describe('the guard the bundle tests run under', () => {
  it.each(['ts-morph', 'typescript', 'tsx/cjs', 'esbuild', './lib/generator'])('stops a process that loads %s', async (module) => {
    const result = await runNode([...BUNDLE_NODE_FLAGS, '-e', `require(${JSON.stringify(module)})`]);
    expect(result.code).toBe(70);
    expect(result.stderr).toMatch(/^forbidden in a bundle: /);
  });

  it('refuses code generation from strings', async () => {
    const result = await runNode([...BUNDLE_NODE_FLAGS, '-e', "new Function('return 1')"]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('Code generation from strings disallowed');
  });
});
