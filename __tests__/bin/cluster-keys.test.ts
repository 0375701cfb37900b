// `tessera start --workers 2` without a cursorSecret: the workers of one server share the key of their cursors and
// ETags (the primary draws it), so a row has one ETag whichever worker answers, a cursor from one worker pages on
// the other, and an If-Match read from one writes on the other. The key never reaches the application's environment.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/free-port';
import { startCli, type RunningCli } from '../helpers/spawn-cli';

const ENTRY = '__tests__/bin/entries/cluster-keys-app.ts';
const START_TIMEOUT_MS = 60_000;

interface Answer {
  status: number;
  etag: string | undefined;
  body: any;
}

/** One call on a new connection: the cluster hands out connections, not requests, to its workers in turn. */
function call(url: string, method: string, route: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port: Number(new URL(url).port), path: route, method, agent: false, headers: { 'content-type': 'application/json', ...headers } }, (response) => {
      let text = '';
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, etag: response.headers.etag, body: text === '' ? null : JSON.parse(text) }));
    });
    request.on('error', reject);
    request.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

describe('tessera start --workers 2 without a cursorSecret', () => {
  let cli: RunningCli;
  let folder: string;

  beforeAll(async () => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tessera-cluster-keys-'));
    cli = await startCli(['start', ENTRY, '--port', String(await freePort()), '--workers', '2'], { NOTES_DATABASE: path.join(folder, 'notes.db') }, START_TIMEOUT_MS);
  }, 2 * START_TIMEOUT_MS);

  afterAll(async () => {
    await cli?.stop();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('answers from both workers, neither of which sees the key in its environment', async () => {
    const workers = [];
    for (let index = 0; index < 4; index++) workers.push((await call(cli.url, 'POST', '/api/shop/worker', {})).body);
    expect(new Set(workers.map((worker) => worker.pid)).size).toBe(2);
    expect(workers.every((worker) => worker.seesKey === false)).toBe(true);
  });

  it('answers one ETag for a row from either worker, and 304 to it from either', async () => {
    const gets = [];
    for (let index = 0; index < 4; index++) gets.push(await call(cli.url, 'GET', '/api/notes/1'));
    expect(new Set(gets.map((get) => get.etag)).size).toBe(1);
    for (let index = 0; index < 4; index++) expect((await call(cli.url, 'GET', '/api/notes/1', undefined, { 'if-none-match': gets[0].etag! })).status).toBe(304);
  });

  it('pages on with a cursor from either worker', async () => {
    const first = await call(cli.url, 'POST', '/api/notes/query', { limit: 2, orderBy: [{ field: 'id', direction: 'asc' }], cursor: true });
    expect(first.body.items.map((note: { id: number }) => note.id)).toEqual([1, 2]);
    for (let index = 0; index < 4; index++) {
      const next = await call(cli.url, 'POST', '/api/notes/query', { limit: 2, orderBy: [{ field: 'id', direction: 'asc' }], cursor: first.body.nextCursor });
      expect([next.status, next.body.items?.map((note: { id: number }) => note.id)]).toEqual([200, [3, 4]]);
    }
  });

  it('writes with an If-Match read from the other worker', async () => {
    for (let index = 0; index < 4; index++) {
      const read = await call(cli.url, 'GET', '/api/notes/2');
      const written = await call(cli.url, 'PATCH', '/api/notes/2', { title: `two ${index}` }, { 'if-match': read.etag! });
      expect([written.status, written.body.title]).toEqual([200, `two ${index}`]);
    }
  });
});
