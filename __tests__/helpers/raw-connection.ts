// One kept-alive HTTP/1.1 connection driven by hand over a TCP socket, for tests about connections
// themselves (graceful shutdown, timeouts): which request went on which connection, when the server
// closed it, whether it was reset. fetch pools and retries connections, so it cannot show these.
import net from 'node:net';

export interface RawResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
}

export class RawConnection {
  readonly socket: net.Socket;
  #buffer = Buffer.alloc(0);
  #waiting: { resolve(response: RawResponse): void; reject(error: Error): void } | null = null;
  #closed: Promise<void>;
  #error: Error | null = null;
  #isClosed = false;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.on('data', (chunk) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#deliver();
    });
    socket.on('error', (error) => (this.#error = error));
    this.#closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.#isClosed = true;
        this.#waiting?.reject(this.#error ?? new Error('the server closed the connection before answering'));
        this.#waiting = null;
        resolve();
      }),
    );
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Whether the server has closed the connection. */
  get isClosed(): boolean {
    return this.#isClosed;
  }

  /** The socket error the connection ended with (ECONNRESET), or null for a clean close. */
  get error(): Error | null {
    return this.#error;
  }

  /** Resolves once the connection is closed. */
  closed(): Promise<void> {
    return this.#closed;
  }

  /** Sends a request and resolves with its response; the connection stays open unless the server closes it. */
  request(method: string, path: string, body?: unknown): Promise<RawResponse> {
    const payload = body === undefined ? '' : JSON.stringify(body);
    const head = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: keep-alive'];
    if (body !== undefined) head.push('Content-Type: application/json', `Content-Length: ${Buffer.byteLength(payload)}`);
    const answer = this.response();
    this.socket.write(`${head.join('\r\n')}\r\n\r\n${payload}`);
    return answer;
  }

  /** The next response, for a request written with write(). */
  response(): Promise<RawResponse> {
    if (this.#waiting !== null) throw new Error('one request at a time');
    const answer = new Promise<RawResponse>((resolve, reject) => (this.#waiting = { resolve, reject }));
    this.#deliver();
    return answer;
  }

  /** Writes raw bytes (a partial request, for timeout tests). */
  write(text: string): void {
    this.socket.write(text);
  }

  /** Everything the server sent that is not a complete response yet. */
  get pending(): string {
    return this.#buffer.toString('latin1');
  }

  end(): void {
    this.socket.destroy();
  }

  #deliver(): void {
    if (this.#waiting === null) return;
    const text = this.#buffer.toString('latin1');
    const headEnd = text.indexOf('\r\n\r\n');
    if (headEnd === -1) return;
    const [statusLine, ...lines] = text.slice(0, headEnd).split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const bodyStart = Buffer.byteLength(text.slice(0, headEnd + 4), 'latin1');
    if (this.#buffer.length < bodyStart + length) return;
    const body = this.#buffer.subarray(bodyStart, bodyStart + length).toString('utf8');
    this.#buffer = this.#buffer.subarray(bodyStart + length);
    const waiting = this.#waiting;
    this.#waiting = null;
    waiting.resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
  }
}
