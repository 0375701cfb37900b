// Writes on SQLite in WAL mode leave SQLite free to restart its WAL: the WAL file stays near its auto-checkpoint
// size (1,000 pages) however many rows are written. A write with RETURNING left unfinished (better-sqlite3's
// .get()) holds a read mark until its next use, and the WAL then grows with every write; this checks every write
// path of the dialect: the cached statements, and Drizzle's own query when the cache is off or a scope applies.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { clearRegistry, crud, defineService } from '../../../runtime/index';
import { statementCacheOf } from '../../../runtime/sql/statement-cache';

const notes = sqliteTable('notes', { id: integer('id').primaryKey({ autoIncrement: true }), body: text('body').notNull(), owner: text('owner').notNull() });
const WRITES = 1500;
/** Each write adds at least a page (4 KB) to a WAL that never restarts: 1,500 writes, 6 MB or more. */
const WAL_CEILING_BYTES = 4.5 * 2 ** 20;
const BODY = 'x'.repeat(600);

function openNotes(file: string, { cached, scoped }: { cached: boolean; scoped: boolean }) {
  const client = new Database(file);
  client.pragma('journal_mode = WAL');
  client.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL, owner TEXT NOT NULL)');
  const db = drizzle(client);
  if (!cached) statementCacheOf(db).disable();
  const service = defineService({ name: 'journal', db });
  const access = scoped ? { authorize: () => true, scope: () => eq(notes.owner, 'alice') } : 'public';
  const resource = service.resource({ name: 'notes', table: notes, id: notes.id }).use(
    crud({ access, fields: { id: { read: true }, body: { read: true, create: true, update: true }, owner: { read: true, create: true } } }),
  );
  return { client, resource };
}

describe('SQLite writes in WAL mode', () => {
  let folder: string;
  beforeAll(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-sqlite-wal-'));
  });
  beforeEach(() => clearRegistry());
  afterAll(() => {
    clearRegistry();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it.each([
    ['cached statements', { cached: true, scoped: false }],
    ['Drizzle queries (statementCache off)', { cached: false, scoped: false }],
    ['a scope (a transaction per write)', { cached: false, scoped: true }],
  ])('keep the WAL bounded through %s, for creates and updates', async (name, options) => {
    const file = path.join(folder, `${name.replace(/\W+/g, '-')}.db`);
    const { client, resource } = openNotes(file, options);
    try {
      for (let index = 0; index < WRITES; index++) {
        const created = (await resource.create({ input: { body: BODY, owner: 'alice' } })) as { id: number };
        await resource.update({ input: { id: created.id, data: { body: `${BODY}!` } } });
      }
      expect(client.prepare('SELECT count(*) AS n FROM notes').get()).toEqual({ n: WRITES });
      expect(fs.statSync(`${file}-wal`).size).toBeLessThan(WAL_CEILING_BYTES);
    } finally {
      client.close();
    }
  }, 60_000);
});
