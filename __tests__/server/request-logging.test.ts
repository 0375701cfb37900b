// requestLogging (spec §4.3, CONTRACT §5): exactly one line per request, `POST /api/notes → 201 (1.3ms) id=…`
// (the request id), no query string, nothing when switched off; internal errors go to the error log, without SQL
// or values, with the same request id.
import { crud, defineService, type ServerOptions } from 'tessera-api';
import { request } from '../helpers/request';
import { useServerTestbed } from '../helpers/server-testbed';
import { clearRegistry } from '../helpers/test-app';

const REQUEST_ID = '[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}';
const LOG_LINE = new RegExp(`^(GET|POST|PATCH|DELETE) \\/\\S* → \\d{3} \\(\\d+\\.\\d+ms\\) id=${REQUEST_ID}$`);

/** The method, path and status of a line, without its duration and request id. */
function withoutDuration(line: string): string {
  return line.replace(new RegExp(` \\(\\d+\\.\\d+ms\\) id=${REQUEST_ID}$`), '');
}

describe('requestLogging', () => {
  const testbed = useServerTestbed();

  let lines: string[] = [];
  const logger = (line: string) => void lines.push(line);
  beforeEach(() => {
    lines = [];
  });

  /** Starts a server, runs `requests` against it and answers every logged line once the server has closed (so every response has finished; the testbed's second close is harmless). */
  async function logOf(options: ServerOptions, requests: (url: string) => Promise<void>): Promise<string[]> {
    const server = await testbed.start(options);
    try {
      await requests(server.url);
    } finally {
      await server.close();
    }
    return lines;
  }

  it('logs exactly one line per request: METHOD path → status (ms)', async () => {
    const logged = await logOf({ requestLogging: { logger } }, async (url) => {
      const created = await request(`${url}/api/notes`, { method: 'POST', body: { title: 'Logged' } });
      await request(`${url}/api/notes/${created.body.id}`);
      await request(`${url}/api/notes/${created.body.id}`, { method: 'PATCH', body: { title: 'Changed' } });
      await request(`${url}/api/notes/query`, { method: 'POST', body: {} });
      await request(`${url}/api/notes/${created.body.id}`, { method: 'DELETE' });
      await request(`${url}/api/notes/missing`);
    });
    expect(logged).toHaveLength(6);
    for (const line of logged) expect(line).toMatch(LOG_LINE);
    expect(logged.map(withoutDuration)).toEqual([
      'POST /api/notes → 201',
      expect.stringMatching(/^GET \/api\/notes\/[0-9a-f-]{36} → 200$/),
      expect.stringMatching(/^PATCH \/api\/notes\/[0-9a-f-]{36} → 200$/),
      'POST /api/notes/query → 200',
      expect.stringMatching(/^DELETE \/api\/notes\/[0-9a-f-]{36} → 200$/),
      'GET /api/notes/missing → 404',
    ]);
  });

  it('logs routes outside the prefix and unknown routes too', async () => {
    const logged = await logOf({ requestLogging: { logger } }, async (url) => {
      await request(`${url}/_health`);
      await request(`${url}/nowhere`);
    });
    expect(logged.map(withoutDuration)).toEqual(['GET /_health → 200', 'GET /nowhere → 404']);
  });

  it('leaves the query string out of the line', async () => {
    const logged = await logOf({ requestLogging: { logger } }, async (url) => {
      const created = await request(`${url}/api/notes`, { method: 'POST', body: { title: 'Private' } });
      await request(`${url}/api/notes/${created.body.id}?select=title&token=s3cr3t`);
    });
    expect(logged).toHaveLength(2);
    expect(logged[1]).toMatch(LOG_LINE);
    expect(logged[1]).not.toContain('?');
    expect(logged[1]).not.toContain('s3cr3t');
    expect(logged[1]).not.toContain('select');
  });

  it.each([
    ['requestLogging: false', false],
    ['requestLogging: { enabled: false }', { enabled: false, logger }],
  ] as const)('logs nothing with %s', async (_name, requestLogging) => {
    const spy = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      const logged = await logOf({ requestLogging }, async (url) => {
        await request(`${url}/api/notes`, { method: 'POST', body: { title: 'Quiet' } });
        await request(`${url}/api/notes/query`, { method: 'POST', body: {} });
      });
      expect(logged).toEqual([]);
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
  });

  it('logs exactly one request line for an INTERNAL_ERROR, and its cause to the error log without SQL or values', async () => {
    const { database } = testbed;
    const sentinel = 'SENTINEL-title-7f3a';
    await database.raw('DROP TABLE t_notes');
    const errors: string[] = [];
    let answer: Awaited<ReturnType<typeof request>> | undefined;
    let requestId: string | null = null;
    const logged = await logOf({ requestLogging: { logger }, errorLogger: (line) => void errors.push(line) }, async (url) => {
      const response = await fetch(`${url}/api/notes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ title: sentinel, content: 'payload-content-91c2' }) });
      requestId = response.headers.get('x-request-id');
      const text = await response.text();
      answer = { status: response.status, contentType: response.headers.get('content-type') ?? '', body: JSON.parse(text), text };
    });
    expect(answer!.status).toBe(500);
    expect(answer!.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: expect.any(String) } });
    expect(answer!.text).not.toContain(sentinel);
    expect(answer!.text).not.toMatch(/t_notes|insert/i);

    expect(logged.map(withoutDuration)).toEqual(['POST /api/notes → 500']);
    expect(errors).toEqual([expect.stringMatching(/^INTERNAL_ERROR POST \/api\/notes: /)]);
    expect(errors[0]).not.toContain(sentinel);
    expect(errors[0]).not.toContain('payload-content-91c2');
    // The reason names the table (an identifier, never a value) so the failure can be diagnosed; no SQL. The id is
    // the answer's X-Request-Id and the request line's: the three can be matched.
    expect(requestId).toMatch(new RegExp(`^${REQUEST_ID}$`));
    expect(errors[0]).toBe(`INTERNAL_ERROR POST /api/notes: DatabaseError: SQLITE_ERROR: no such table: t_notes id=${requestId}`);
    expect(logged[0]).toMatch(new RegExp(` id=${requestId}$`));
    expect(errors[0]).not.toMatch(/insert|values|select/i);
  });

  it('writes the error line to stderr (console.error) by default, and nowhere with errorLogger: false', async () => {
    await testbed.database.raw('DROP TABLE t_notes');
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await logOf({ requestLogging: { logger } }, async (url) => {
        await request(`${url}/api/notes`, { method: 'POST', body: { title: 'x' } });
      });
      expect(spy.mock.calls).toEqual([[expect.stringMatching(/^INTERNAL_ERROR POST \/api\/notes: /)]]);
      spy.mockClear();
      await logOf({ requestLogging: { logger }, errorLogger: false }, async (url) => {
        await request(`${url}/api/notes`, { method: 'POST', body: { title: 'x' } });
      });
      expect(spy).not.toHaveBeenCalled();
      expect(lines.map(withoutDuration)).toEqual(['POST /api/notes → 500', 'POST /api/notes → 500']);
    } finally {
      spy.mockRestore();
    }
  });

  it('refuses an errorLogger that is neither a function nor false', async () => {
    await expect(testbed.start({ errorLogger: 'stderr' as never })).rejects.toThrow('errorLogger must be a function taking one line, or false');
  });

  it('logs one line, status 499, for a request whose client went away before the answer', async () => {
    let arrived!: () => void;
    const hasArrived = new Promise<void>((resolve) => (arrived = resolve));
    const endpoints = [{ method: 'GET' as const, path: '/never', handler: () => arrived() }];
    const logged = await logOf({ requestLogging: { logger }, endpoints }, async (url) => {
      const aborted = new AbortController();
      const answer = fetch(`${url}/never`, { signal: aborted.signal }).catch((error: Error) => error.name);
      await hasArrived;
      aborted.abort();
      expect(await answer).toBe('AbortError');
      while (lines.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    });
    expect(logged.map(withoutDuration)).toEqual(['GET /never → 499']);
  });

  it('names a mistake in the application code (a hook setting a non-column) in the error line, without values', async () => {
    const { database } = testbed;
    clearRegistry();
    const { notes } = database.tables;
    const shop = defineService({ name: 'hooks', db: database.db });
    shop.resource({ name: 'notes', table: notes, id: notes.id }).use(
      crud({
        access: 'public',
        fields: { title: { read: true, create: true } },
        hooks: { beforeCreate: ({ data }) => ({ ...data, titel: 'typo' }) },
      }),
    );
    const errors: string[] = [];
    let answer: Awaited<ReturnType<typeof request>> | undefined;
    await logOf({ services: [shop], requestLogging: { logger }, errorLogger: (line) => void errors.push(line) }, async (url) => {
      answer = await request(`${url}/api/notes`, { method: 'POST', body: { title: 'value-83d1' } });
    });
    expect(answer!.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } });
    expect(errors).toEqual([expect.stringMatching(new RegExp(`^INTERNAL_ERROR POST /api/notes: SetupError: hooks\\.notes: hooks\\.beforeCreate set "titel", which is not a column id=${REQUEST_ID}$`))]);
    expect(await database.raw('SELECT id FROM t_notes')).toEqual([]);
  });

  /** The error lines of one call to an action throwing `error`, with DEBUG set to `debug`. */
  async function errorLinesOf(error: Error, debug: string | undefined): Promise<string[]> {
    clearRegistry();
    const shop = defineService({ name: 'thrower', db: testbed.database.db });
    shop.action('fail', { handler: () => Promise.reject(error) });
    const errors: string[] = [];
    const saved = process.env.DEBUG;
    if (debug === undefined) delete process.env.DEBUG;
    else process.env.DEBUG = debug;
    try {
      await logOf({ services: [shop], requestLogging: false, errorLogger: (line) => void errors.push(line) }, async (url) => {
        expect((await request(`${url}/api/thrower/fail`, { method: 'POST', body: {} })).status).toBe(500);
      });
    } finally {
      if (saved === undefined) delete process.env.DEBUG;
      else process.env.DEBUG = saved;
    }
    return errors;
  }

  it("keeps an application error's name and code on its one line, whatever characters they hold", async () => {
    const error = Object.assign(new Error('the message 5ecret'), { code: 'E_ONE\nFAKE LINE id=forged' });
    error.name = 'Own\r\nError';
    const errors = await errorLinesOf(error, undefined);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(new RegExp(`^INTERNAL_ERROR POST /api/thrower/fail: Own Error \\(E_ONE FAKE LINE id=forged\\) id=${REQUEST_ID}$`));
    expect(errors[0]).not.toContain('5ecret');
  });

  it('adds the cause with its message and stack under DEBUG=tessera, for the developer of the application', async () => {
    const errors = await errorLinesOf(new Error('lookupRole is not a function'), 'express,tessera');
    expect(errors).toHaveLength(1);
    const [line, ...detail] = errors[0].split('\n');
    expect(line).toMatch(new RegExp(`^INTERNAL_ERROR POST /api/thrower/fail: Error id=${REQUEST_ID}$`));
    expect(detail[0]).toBe('    Error: lookupRole is not a function');
    expect(detail.slice(1).every((frame) => frame.startsWith('        at '))).toBe(true);
  });
});
