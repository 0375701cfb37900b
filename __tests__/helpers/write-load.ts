// Load that tells what happened to each request while a server shuts down: writers on kept-alive
// connections (node:http, so errors keep their codes), each request classified as answered, refused (the
// server no longer accepts: never accepted, safe to retry elsewhere) or reset (accepted, then dropped).
import http from 'node:http';

export interface LoadOutcome {
  /** Requests that got an HTTP answer, by status. */
  answered: Record<number, number>;
  /** Titles of the notes answered 201. */
  created: string[];
  refused: number;
  /** Accepted requests that got no answer: what a graceful shutdown must never do. */
  resets: string[];
}

function post(agent: http.Agent, port: number, path: string, body: unknown): Promise<{ status: number } | { error: NodeJS.ErrnoException }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve) => {
    const request = http.request(
      { host: '127.0.0.1', port, path, method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (response) => {
        response.resume();
        response.on('end', () => resolve({ status: response.statusCode! }));
        response.on('error', (error) => resolve({ error }));
      },
    );
    request.on('error', (error) => resolve({ error }));
    request.end(payload);
  });
}

/**
 * `writers` loops, alternately creating a note and calling the `slow` action (so requests are in flight at
 * any moment), until the server refuses them or `stop()` is called.
 */
export class WriteLoad {
  readonly outcome: LoadOutcome = { answered: {}, created: [], refused: 0, resets: [] };
  #agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  #loops: Promise<void>[] = [];
  #isRunning = true;

  constructor(port: number, writers: number, slowMs = 100) {
    for (let writer = 0; writer < writers; writer++) this.#loops.push(this.#loop(port, writer, slowMs));
  }

  async #loop(port: number, writer: number, slowMs: number): Promise<void> {
    for (let sequence = 0; this.#isRunning; sequence++) {
      const title = `w${writer}-${sequence}`;
      const isSlow = (writer + sequence) % 2 === 0;
      const result = isSlow ? await post(this.#agent, port, '/api/shop/slow', { ms: slowMs }) : await post(this.#agent, port, '/api/notes', { title });
      if ('status' in result) {
        this.outcome.answered[result.status] = (this.outcome.answered[result.status] ?? 0) + 1;
        if (!isSlow && result.status === 201) this.outcome.created.push(title);
      } else if (result.error.code === 'ECONNREFUSED') {
        this.outcome.refused++;
        return; // the server stopped accepting: this client would go to another replica
      } else {
        this.outcome.resets.push(`${result.error.code ?? ''} ${result.error.message}`);
      }
    }
  }

  /** Resolves once every writer has been refused (or stopped). */
  async finished(): Promise<LoadOutcome> {
    await Promise.all(this.#loops);
    this.#agent.destroy();
    return this.outcome;
  }

  stop(): Promise<LoadOutcome> {
    this.#isRunning = false;
    return this.finished();
  }
}
