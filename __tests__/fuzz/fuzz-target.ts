// What the fuzz runs against: the test service on one database (in its own namespace, beside the crud
// suites), seeded with sentinel values in a hidden, a write-only and a scrubbed field and in rows outside
// the caller's scope, served by a generic and a compiled server; and the checks every answer must pass (no sentinel, no
// leaked SQL, name or stack frame: leaks.ts). Conditional headers get ETags answered earlier (conditional-headers.ts).
import http from 'node:http';
import { ERROR_CODES } from 'tessera-api';
import { openDatabase, type DialectName, type TestDatabase } from '../helpers/databases';
import { ADMIN, ALICE, BOB, clearRegistry, defineTestService, listen, type TestServer } from '../helpers/test-app';
import { ETAG_TOKEN } from './conditional-headers';
import { FUZZ_BODY_LIMIT, NOTE_ID_TOKENS, type FuzzRequest } from './fuzz-requests';
import { leakIn } from './leaks';

/** Values no answer to alice, bob, an anonymous or a rejected caller may ever contain. */
export const SENTINELS = {
  hidden: 'HIDDEN-SENTINEL-51b7', // notes.internal: not in `fields`
  writeOnly: 'WRITEONLY-SENTINEL-8d2e', // items.secret: create only
  scrubbed: 'scrubbed-sentinel-3f9a@example.com', // items.email: 'hidden' for anyone but an admin
  outsideScope: 'OUTSIDE-SCOPE-SENTINEL-0c4d', // items.name of mallory's row: in nobody's scope here
} as const;

/** Methods whose routes read a body. */
const BODY_METHODS = new Set(['POST', 'PATCH', 'PUT']);
/** Each table the fuzz writes, by its key column. */
const TABLES: Record<string, string> = { t_notes: 'id', t_items: 'id', t_categories: 'id', t_readings: 'id', t_counters: 'code' };
/** Sent for ETAG_TOKEN before any answer carried an ETag. */
const STALE_ETAG = '"stale-etag-before-any-answer"';
const USER_HEADERS: Record<FuzzRequest['user'], string | null> = {
  anonymous: null,
  alice: JSON.stringify({ user: ALICE }),
  bob: JSON.stringify({ user: BOB }),
  bad: 'bad',
};

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

export class FuzzTarget {
  readonly dialect: DialectName;
  #database!: TestDatabase;
  #servers!: Record<FuzzRequest['mode'], TestServer>;
  /** The same, with the default body limit: for requests at the document's limits (limit-requests.ts). */
  #wideServers!: Record<FuzzRequest['mode'], TestServer>;
  /** The OpenAPI document the generic server serves: where the limit requests read their limits. */
  document: Record<string, any> = {};
  #agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
  #noteIds: string[] = [];
  /** The tables' content after the last accepted write. */
  #checksum = '';
  /** The last ETag an answer carried, and each row path's: conditional requests send the path's (else the last), so some match. */
  #lastEtag = STALE_ETAG;
  #etagOf = new Map<string, string>();

  constructor(dialect: DialectName) {
    this.dialect = dialect;
  }

  async open(): Promise<void> {
    clearRegistry();
    this.#database = await openDatabase(this.dialect, 'fuzz');
    const service = defineTestService(this.#database);
    const options = { services: [service.shop], bodyLimit: FUZZ_BODY_LIMIT, errorLogger: false as const };
    this.#servers = { generic: await listen(options, { mode: 'generic' }), compiled: await listen(options, { mode: 'compiled' }) };
    const wide = { ...options, bodyLimit: undefined };
    this.#wideServers = { generic: await listen(wide, { mode: 'generic' }), compiled: await listen(wide, { mode: 'compiled' }) };
    this.document = (await (await this.#servers.generic.fetch('/openapi.json')).json()) as Record<string, any>;
    this.#service = service;
    await this.reset();
  }

  #service!: ReturnType<typeof defineTestService>;

  /** Fresh tables with the sentinel rows; remembers their checksum. */
  async reset(): Promise<void> {
    await this.#database.reset();
    const { notes, items } = this.#service;
    this.#noteIds = [];
    this.#etagOf.clear();
    for (const title of ['first', 'second', 'third']) {
      const note = (await notes.create({ input: { title, content: `${title} content` } })) as { id: string };
      this.#noteIds.push(note.id);
    }
    await this.#database.raw(`UPDATE t_notes SET internal = '${SENTINELS.hidden}'`);
    const create = (name: string, ctx: object) => items.create({ input: { name, price: 5, secret: SENTINELS.writeOnly, email: SENTINELS.scrubbed }, ctx });
    await create('alice item', { user: ALICE });
    await create('bob item', { user: BOB });
    await create(SENTINELS.outsideScope, { user: ADMIN, forceOwner: 'mallory' });
    // One more than counters' maxAffected (3): a broad updateMany or deleteMany is refused and must change nothing.
    await this.#service.counters.createMany({ input: { items: ['1', '2', '3', '4'].map((code, index) => ({ code, n: index, label: `counter ${code}` })) } });
    this.#checksum = await this.checksum();
  }

  /** Every row of every table, as text. */
  async checksum(): Promise<string> {
    const parts: string[] = [];
    for (const [table, key] of Object.entries(TABLES)) parts.push(JSON.stringify(await this.#database.raw(`SELECT * FROM ${table} ORDER BY ${key}`)));
    return parts.join('\n');
  }

  send(request: FuzzRequest): Promise<Answer> {
    const server = (request.wide === true ? this.#wideServers : this.#servers)[request.mode];
    const { port } = new URL(server.url);
    let path = request.path;
    NOTE_ID_TOKENS.forEach((token, index) => (path = path.replace(token, this.#noteIds[index])));
    const headers: Record<string, string> = {};
    const user = USER_HEADERS[request.user];
    if (user !== null) headers['x-test-user'] = user;
    if (request.contentType !== null) headers['content-type'] = request.contentType;
    if (request.body !== null) headers['content-length'] = String(request.body.length);
    const rowPath = path.split('?')[0];
    for (const [name, value] of Object.entries(request.headers ?? {})) headers[name] = value.replaceAll(ETAG_TOKEN, this.#etagOf.get(rowPath) ?? this.#lastEtag);
    return new Promise((resolve, reject) => {
      const outgoing = http.request({ host: '127.0.0.1', port, method: request.method, path, headers, agent: this.#agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          if (typeof response.headers.etag === 'string') this.#etagOf.set(rowPath, (this.#lastEtag = response.headers.etag));
          resolve({ status: response.statusCode!, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') });
        });
        response.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end(request.body ?? undefined);
    });
  }

  /**
   * What is wrong with an answer, or null: no 5xx; every error `{ error: { code, message, details? } }` with the
   * table's status; no sentinel; a rejected request changed no row (an accepted write moves the checksum on).
   */
  async problemWith(request: FuzzRequest, answer: Answer): Promise<string | null> {
    if (answer.status >= 500) return `answered ${answer.status}: ${answer.text.slice(0, 300)}`;
    for (const [kind, sentinel] of Object.entries(SENTINELS)) {
      if (answer.text.includes(sentinel)) return `the ${kind} sentinel leaked: ${answer.text.slice(0, 300)}`;
    }
    const leak = leakIn(answer.text, `${request.path} ${JSON.stringify(request.headers ?? {})} ${request.body?.toString('utf8') ?? ''}`);
    if (leak !== null) return leak;
    if (answer.status >= 400 && request.method !== 'HEAD') {
      const shape = errorShapeProblem(answer);
      if (shape !== null) return shape;
    }
    // Issue 32: a body that is not exact text is never taken (it was stored with U+FFFD or a lone surrogate).
    if (request.inexact === true && answer.status < 400 && BODY_METHODS.has(request.method)) return `accepted a body that is not exact text: ${answer.status}`;
    // Issue 32: the document's limits hold exactly: valid at the edge (answered, or refused by access rules only),
    // 400 VALIDATION_ERROR one past it.
    if (request.expect === 'accepted' && answer.status === 400) return `${request.edge}: refused at the documented limit: ${answer.text.slice(0, 300)}`;
    if (request.expect === 'rejected' && !(answer.status === 400 && answer.text.includes('"VALIDATION_ERROR"'))) return `${request.edge}: past the documented limit, answered ${answer.status}: ${answer.text.slice(0, 300)}`;
    const isRead = request.method === 'GET' || request.method === 'HEAD' || /\/(query|find-one|count|exists|search|ping)$/.test(request.path);
    if (answer.status < 400 && isRead) return null; // reads run no write statement: spare the checksum
    const checksum = await this.checksum();
    if (answer.status < 400) this.#checksum = checksum;
    else if (checksum !== this.#checksum) return `a rejected request (${answer.status}) changed rows`;
    return null;
  }

  async close(): Promise<void> {
    this.#agent.destroy();
    for (const server of [...Object.values(this.#servers ?? {}), ...Object.values(this.#wideServers ?? {})]) await server.close();
    await this.#database?.close();
    clearRegistry();
  }
}

/** CONTRACT §4's error body, exactly; or why not. */
function errorShapeProblem(answer: Answer): string | null {
  if (!String(answer.headers['content-type']).startsWith('application/json')) return `error ${answer.status} is not JSON: ${answer.headers['content-type']}`;
  let body: any;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `error ${answer.status} body does not parse: ${answer.text.slice(0, 200)}`;
  }
  const error = body?.error;
  const isShape =
    typeof body === 'object' &&
    Object.keys(body).length === 1 &&
    typeof error === 'object' &&
    error !== null &&
    Object.keys(error).every((key) => key === 'code' || key === 'message' || key === 'details') &&
    typeof error.message === 'string' &&
    Object.hasOwn(ERROR_CODES, error.code) &&
    ERROR_CODES[error.code as keyof typeof ERROR_CODES] === answer.status &&
    (error.details === undefined ||
      (Array.isArray(error.details) && error.details.every((detail: any) => typeof detail?.path === 'string' && typeof detail?.message === 'string' && Object.keys(detail).length === 2)));
  return isShape ? null : `error ${answer.status} has the wrong shape: ${answer.text.slice(0, 300)}`;
}
