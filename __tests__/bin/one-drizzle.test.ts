// An ES module application under `tessera start` imports drizzle-orm, and Tessera's runtime (CommonJS) requires it:
// both get Drizzle's CommonJS build (bin/drizzle-commonjs-hooks.mjs), one copy of Drizzle in the process, as in the
// application's bundle (__tests__/generator/entry-bundle.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { temporaryFolder } from '../helpers/bundles';
import { freePort } from '../helpers/free-port';
import { request } from '../helpers/request';
import { startCli } from '../helpers/spawn-cli';

const APP = `import { createRequire } from 'node:module';
import Database from 'better-sqlite3';
import { drizzle } from 'drizzle-orm/better-sqlite3';
import { integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { crud, defineService } from 'tessera-api';

const books = sqliteTable('books', { id: integer('id').primaryKey({ autoIncrement: true }), title: text('title').notNull() });
const client = new Database(':memory:');
client.exec('CREATE TABLE books (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL)');
const library = defineService({ name: 'library', db: drizzle(client) });
library.resource({ name: 'books', table: books, id: books.id }).use(crud({ access: 'public', fields: { id: { read: true }, title: { read: true, create: true } } }));

// What CommonJS code (Tessera's runtime) gets when it requires Drizzle, against what this module imported.
const required = createRequire(import.meta.url)('drizzle-orm/sqlite-core');
console.log(\`one Drizzle: \${books instanceof required.SQLiteTable}\`);
await Promise.resolve();
export default { docs: false };
`;

describe('an ES module application under tessera start', () => {
  const folder = temporaryFolder('one-drizzle');

  it("imports the Drizzle that Tessera's runtime requires, and serves its resource", async () => {
    fs.writeFileSync(path.join(folder.path, 'package.json'), JSON.stringify({ name: 'esm-app', private: true, type: 'module' }));
    fs.writeFileSync(path.join(folder.path, 'app.ts'), APP);
    const server = await startCli(['start', path.join(folder.path, 'app.ts'), '--port', String(await freePort())], {}, 60_000);
    try {
      expect(server.stdout()).toContain('one Drizzle: true\n');
      const created = await request(`${server.url}/api/books`, { method: 'POST', body: { title: 'Dune' } });
      expect(created).toMatchObject({ status: 201, body: { id: 1, title: 'Dune' } });
    } finally {
      await server.stop();
    }
  }, 90_000);
});
