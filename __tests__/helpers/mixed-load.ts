// Steady mixed load on a crud resource, for the scale-out tests: clients on kept-alive connections, each sending
// gets, lists, creates and updates one after another, every request recorded with the event it was sent in
// (`event(name)` starts the next), its answer or error, and the replica that served it (HAProxy's X-Served-By).
import http from 'node:http';

export type RequestKind = 'get' | 'list' | 'create' | 'update';

export interface RequestRecord {
  readonly event: string;
  readonly kind: RequestKind;
  readonly startedAt: number;
  endedAt: number;
  /** The HTTP status, or null when no answer came (reset, refused, timeout). */
  status: number | null;
  error: string | null;
  servedBy: string | null;
}

export interface EventFigures {
  readonly event: string;
  readonly sent: number;
  readonly failed: number;
  readonly byStatus: Readonly<Record<string, number>>;
  readonly byReplica: Readonly<Record<string, number>>;
}

const REQUEST_TIMEOUT_MS = 15_000;
/** A pause between a client's requests, so that the load stays steady without taking every core. */
const THINK_MS = 2;

/** Whether a finished request failed at the client: no answer, or an answer that is not 2xx. */
export function isFailure(record: RequestRecord): boolean {
  return record.endedAt !== 0 && (record.status === null || record.status < 200 || record.status >= 300);
}

export class MixedLoad {
  readonly records: RequestRecord[] = [];
  readonly #agent: http.Agent;
  readonly #port: number;
  readonly #path: string;
  readonly #ids: number[] = [];
  #event = 'steady';
  #isRunning = true;
  readonly #loops: Promise<void>[] = [];

  /** `path` is the resource's base path (`/api/items`). */
  constructor({ port, path, clients }: { port: number; path: string; clients: number }) {
    this.#port = port;
    this.#path = path;
    this.#agent = new http.Agent({ keepAlive: true, maxSockets: clients });
    for (let client = 0; client < clients; client++) this.#loops.push(this.#loop(client));
  }

  /** Requests sent from now on count under `name`. */
  event(name: string): void {
    this.#event = name;
  }

  async stop(): Promise<void> {
    this.#isRunning = false;
    await Promise.all(this.#loops);
    this.#agent.destroy();
  }

  figures(): EventFigures[] {
    const events = [...new Set(this.records.map((record) => record.event))];
    return events.map((event) => {
      const records = this.records.filter((record) => record.event === event);
      const byStatus: Record<string, number> = {};
      const byReplica: Record<string, number> = {};
      for (const record of records) {
        const status = record.status === null ? (record.error ?? 'error') : String(record.status);
        byStatus[status] = (byStatus[status] ?? 0) + 1;
        if (record.servedBy !== null) byReplica[record.servedBy] = (byReplica[record.servedBy] ?? 0) + 1;
      }
      return { event, sent: records.length, failed: records.filter(isFailure).length, byStatus, byReplica };
    });
  }

  failures(event?: string): RequestRecord[] {
    return this.records.filter((record) => isFailure(record) && (event === undefined || record.event === event));
  }

  async #loop(client: number): Promise<void> {
    for (let sequence = 0; this.#isRunning; sequence++) {
      const kind = this.#ids.length < 5 ? 'create' : (['get', 'get', 'list', 'create', 'update'] as const)[(client + sequence) % 5];
      const id = this.#ids[Math.floor(Math.random() * this.#ids.length)];
      const record = await this.#send(kind, id, `c${client}-${sequence}`);
      if (record.kind === 'create' && record.status === 201) this.#ids.push(Number((record as RequestRecord & { id?: number }).id));
      await new Promise((resolve) => setTimeout(resolve, THINK_MS));
    }
  }

  #send(kind: RequestKind, id: number | undefined, title: string): Promise<RequestRecord> {
    const record: RequestRecord & { id?: number } = { event: this.#event, kind, startedAt: Date.now(), endedAt: 0, status: null, error: null, servedBy: null };
    this.records.push(record);
    const [method, path, body] =
      kind === 'get'
        ? ['GET', `${this.#path}/${id}`, undefined]
        : kind === 'list'
          ? ['POST', `${this.#path}/query`, { limit: 5, orderBy: [{ field: 'id', direction: 'desc' }] }]
          : kind === 'create'
            ? ['POST', this.#path, { title }]
            : ['PATCH', `${this.#path}/${id}`, { version: Math.floor(Math.random() * 1000) }];
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string | number> = payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) };
    return new Promise((resolve) => {
      const done = (error: string | null) => {
        if (record.endedAt !== 0) return;
        record.endedAt = Date.now();
        if (error !== null) record.error = error;
        resolve(record);
      };
      const request = http.request({ host: '127.0.0.1', port: this.#port, path, method, headers, agent: this.#agent, timeout: REQUEST_TIMEOUT_MS }, (response) => {
        record.servedBy = (response.headers['x-served-by'] as string | undefined) ?? null;
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => {
          record.status = response.statusCode!;
          if (kind === 'create' && record.status === 201) record.id = JSON.parse(text).id;
          done(null);
        });
        response.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
      });
      request.on('timeout', () => request.destroy(new Error('timeout')));
      request.on('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
      request.end(payload);
    });
  }
}
