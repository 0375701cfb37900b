// Issue 27: the compiled handlers evaluate `$defaultFn` and `$onUpdateFn` per row, as Drizzle's insert and update do
// (a function answering SQL included), under a scope and a before-update hook; the same requests answer byte for
// byte the same with the generic handler and with handlers compiled at construction, and store the same rows; and
// the same again when every application function (context, authorize, scope, scrub, hooks) answers a promise, which
// a compiled handler awaits where a synchronous answer is used as it is.
import type { AddressInfo } from 'node:net';
import Database from 'better-sqlite3';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { clearRegistry, createServer, crud, defineService } from 'tessera-api';

let counter = 0;
const stamped = sqliteTable('stamped', {
  id: text('id').primaryKey().$defaultFn(() => `row-${++counter}`),
  title: text('title').notNull(),
  ownerId: text('owner_id').notNull(),
  origin: text('origin').$defaultFn(() => sql`'from ' || 'sql'`),
  updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).$onUpdateFn(() => new Date(Date.UTC(2026, 0, 1) + ++counter * 1000)),
  revision: integer('revision').$onUpdateFn(() => counter),
});

interface Exchange {
  status: number;
  body: string;
}

async function runRequests(compiler: boolean, promises = false): Promise<{ answers: Exchange[]; rows: unknown[] }> {
  // Each application function's answer as it is, or as a promise of it.
  const answer = <T>(value: T): T | Promise<T> => (promises ? Promise.resolve(value) : value);
  clearRegistry();
  counter = 0;
  const client = new Database(':memory:');
  client.exec('create table stamped (id text primary key, title text not null, owner_id text not null, origin text, updated_at integer, revision integer)');
  const db = drizzle(client);
  const service = defineService({ name: 'app', db });
  service.resource({ name: 'stamped', table: stamped, id: stamped.id }).use(
    crud({
      access: {
        authorize: ({ ctx }) => answer(ctx.user !== undefined),
        scope: ({ ctx }) => answer(ctx.user === 'admin' ? undefined : { ownerId: { eq: ctx.user as string } }),
      },
      fields: {
        id: { read: true },
        title: { read: true, create: true, update: true },
        ownerId: { read: true },
        origin: { read: true, scrub: ({ value, ctx }) => answer(ctx.user === 'bob' ? '***' : value) },
        updatedAt: { read: true },
        revision: { read: true },
      },
      hooks: {
        beforeCreate: ({ data, ctx }) => answer({ ...data, ownerId: ctx.user }),
        beforeUpdate: ({ data }) => answer(data.title === 'keep' ? undefined : { ...data, title: `${String(data.title)}!` }),
      },
    }),
  );
  const app = createServer({ services: [service], compiler, requestLogging: false, context: (req) => answer({ user: req.headers['x-user'] }) });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/stamped`;
  const call = async (method: string, path: string, user: string, body?: unknown): Promise<Exchange> => {
    const response = await fetch(base + path, { method, headers: { 'x-user': user, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, body: await response.text() };
  };
  const answers: Exchange[] = [];
  try {
    answers.push(await call('POST', '', 'alice', { title: 'first' }));
    answers.push(await call('POST', '', 'bob', { title: 'second' }));
    answers.push(await call('PATCH', '/row-1', 'alice', { title: 'renamed' }));
    answers.push(await call('PATCH', '/row-1', 'alice', { title: 'keep' }));
    answers.push(await call('PATCH', '/row-3', 'alice', { title: 'not mine' }));
    answers.push(await call('PATCH', '/row-3', 'admin', { title: 'admin' }));
    answers.push(await call('GET', '/row-3', 'alice'));
    answers.push(await call('GET', '/row-3', 'bob'));
    answers.push(await call('POST', '/query', 'alice', {}));
    answers.push(await call('POST', '/query', 'admin', { limit: 1, offset: 1 }));
    answers.push(await call('POST', '/count', 'bob', {}));
    answers.push(await call('POST', '/exists', 'carol', {}));
    answers.push(await call('POST', '/find-one', 'bob', {}));
    answers.push(await call('DELETE', '/row-3', 'alice'));
    answers.push(await call('DELETE', '/row-3', 'bob'));
    return { answers, rows: client.prepare('select * from stamped order by id').all() };
  } finally {
    await new Promise((resolve) => server.close(resolve));
    client.close();
    clearRegistry();
  }
}

describe('$defaultFn and $onUpdateFn on the compiled path', () => {
  it('answers and stores what the generic handler answers and stores, the functions evaluated per row', async () => {
    const generic = await runRequests(false);
    const compiled = await runRequests(true);
    expect(compiled).toEqual(generic);
    const [first, second, renamed, kept, notMine, byAdmin, hidden] = generic.answers;
    // Each insert: the key's $defaultFn, then the $onUpdateFn of the columns without a default (Drizzle's insert).
    expect(first).toEqual({ status: 201, body: '{"id":"row-1","title":"first","ownerId":"alice","origin":"from sql","updatedAt":"2026-01-01T00:00:02.000Z","revision":2}' });
    expect(JSON.parse(second.body)).toMatchObject({ id: 'row-3', ownerId: 'bob', revision: 4 });
    // Each update calls every $onUpdateFn once, whether or not a row is found.
    expect(JSON.parse(renamed.body)).toEqual({ id: 'row-1', title: 'renamed!', ownerId: 'alice', origin: 'from sql', updatedAt: '2026-01-01T00:00:05.000Z', revision: 5 });
    expect(JSON.parse(kept.body)).toMatchObject({ title: 'keep', updatedAt: '2026-01-01T00:00:06.000Z', revision: 6 });
    expect(notMine.status).toBe(404);
    expect(JSON.parse(byAdmin.body)).toMatchObject({ id: 'row-3', title: 'admin!', revision: 8 });
    expect(hidden.status).toBe(404);
    expect(generic.answers.slice(-2).map((answer) => answer.status)).toEqual([404, 200]);
    expect(generic.rows).toEqual([{ id: 'row-1', title: 'keep', owner_id: 'alice', origin: 'from sql', updated_at: Date.UTC(2026, 0, 1) + 6000, revision: 6 }]);
    expect(JSON.parse(second.body).origin).toBe('***');
  });

  it('answers the same when every application function answers a promise, in both handler modes', async () => {
    const synchronous = await runRequests(false);
    expect(await runRequests(false, true)).toEqual(synchronous);
    expect(await runRequests(true, true)).toEqual(synchronous);
  });
});
