// requestLogging (spec §4.3, CONTRACT §5): one line per request, `POST /api/notes → 201 (1.3ms)`,
// no query string, nothing when switched off, and internal errors logged without SQL or values.
import { crud, defineService, type ServerOptions } from 'tessera';
import { request } from '../helpers/request';
import { useServerTestbed } from '../helpers/server-testbed';
import { clearRegistry } from '../helpers/test-app';

const LOG_LINE = /^(GET|POST|PATCH|DELETE) \/\S* → \d{3} \(\d+\.\d+ms\)$/;

/** The method, path and status of a line, without its duration. */
function withoutDuration(line: string): string {
  return line.replace(/ \(\d+\.\d+ms\)$/, '');
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

  it('logs one extra line for an INTERNAL_ERROR that holds no SQL and no values', async () => {
    const { database } = testbed;
    const sentinel = 'SENTINEL-title-7f3a';
    await database.raw('DROP TABLE t_notes');
    let answer: Awaited<ReturnType<typeof request>> | undefined;
    const logged = await logOf({ requestLogging: { logger } }, async (url) => {
      answer = await request(`${url}/api/notes`, { method: 'POST', body: { title: sentinel, content: 'payload-content-91c2' } });
    });
    expect(answer!.status).toBe(500);
    expect(answer!.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: expect.any(String) } });
    expect(answer!.text).not.toContain(sentinel);
    expect(answer!.text).not.toMatch(/t_notes|insert/i);

    expect(logged).toHaveLength(2);
    const requestLines = logged.filter((line) => LOG_LINE.test(line));
    expect(requestLines.map(withoutDuration)).toEqual(['POST /api/notes → 500']);
    const [errorLine] = logged.filter((line) => !LOG_LINE.test(line));
    expect(errorLine).toContain('INTERNAL_ERROR');
    expect(errorLine).not.toContain(sentinel);
    expect(errorLine).not.toContain('payload-content-91c2');
    expect(errorLine).not.toMatch(/t_notes|insert|values|select/i);
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
    let answer: Awaited<ReturnType<typeof request>> | undefined;
    const logged = await logOf({ services: [shop], requestLogging: { logger } }, async (url) => {
      answer = await request(`${url}/api/notes`, { method: 'POST', body: { title: 'value-83d1' } });
    });
    expect(answer!.body).toEqual({ error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } });
    const [errorLine] = logged.filter((line) => !LOG_LINE.test(line));
    expect(errorLine).toBe('INTERNAL_ERROR POST /api/notes: SetupError: hooks.notes: hooks.beforeCreate set "titel", which is not a column');
    expect(await database.raw('SELECT id FROM t_notes')).toEqual([]);
  });
});
