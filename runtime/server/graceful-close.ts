// `app.close()`: the graceful shutdown of a Tessera application. It stops accepting connections, answers
// /_health 503 "stopping", lets in-flight requests finish within the grace period, closes kept-alive
// connections without racing a client's next request, then closes the services' database clients.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import type { Service } from '../service';
import { closeDatabases } from './close-databases';

export interface CloseOptions {
  /** Milliseconds in-flight requests get to finish before their connections are cut. Default: the server option `shutdownGracePeriod` (10 s). */
  gracePeriod?: number;
  /** Servers that `app.listen` did not start (HTTPS, or an outer Express app's) to close as well. */
  servers?: Server[];
  /** `false` leaves the services' database clients open (when the application still uses them). Default true. */
  closeDatabases?: boolean;
}

export interface CloseResult {
  /** Connections still serving a request when the grace period ended, and cut. 0 when everything drained. */
  cutConnections: number;
  /**
   * Services whose database client did not close within the grace period (a hung database): given up on, so that
   * the process can exit. Empty when every client closed.
   */
  abandonedDatabases: string[];
}

/** How often kept-alive connections are looked at during a shutdown. */
const SWEEP_MS = 100;
/**
 * During a shutdown, a kept-alive connection that has carried no request for this long is closed. Closing
 * an idle connection at once races a client that is sending its next request on it (which would see a
 * reset); a busy client reuses its connection well within this time, and is answered `Connection: close`.
 */
export const IDLE_CONNECTION_CLOSE_MS = 500;
/** Closing the database clients gets what remains of the grace period, and at least this (a healthy close takes milliseconds). */
export const MIN_DATABASE_CLOSE_MS = 1_000;

/** The response a server socket is writing (Node's `socket._httpMessage`), or nothing while it is idle. */
function responseOf(socket: Socket): { headersSent: boolean; setHeader(name: string, value: string): unknown } | null {
  return (socket as unknown as { _httpMessage?: { headersSent: boolean; setHeader(name: string, value: string): unknown } | null })._httpMessage ?? null;
}

/** Every further request on an existing connection is its last: answered with `Connection: close`, then the connection ends. */
function lastOnConnection(_req: unknown, res: { setHeader(name: string, value: string): unknown }): void {
  res.setHeader('Connection', 'close');
}

/** Stops accepting without Node's immediate closing of idle connections (server.close() does that since Node 19). */
function stopAccepting(server: Server, done: () => void): void {
  const target = server as { closeIdleConnections: () => void };
  const own = Object.getOwnPropertyDescriptor(target, 'closeIdleConnections');
  target.closeIdleConnections = () => undefined;
  try {
    server.close(() => done());
  } finally {
    if (own === undefined) delete (target as { closeIdleConnections?: unknown }).closeIdleConnections;
    else Object.defineProperty(target, 'closeIdleConnections', own);
  }
}

/** Tracks the servers of one application and shuts them down gracefully. */
export class ServerLifecycle {
  readonly #services: readonly Service[];
  readonly #gracePeriod: number;
  readonly #errorLog: ((message: string) => void) | null;
  /** Each server app.listen started, with its open connections. */
  readonly #servers = new Map<Server, Set<Socket>>();
  /** Called whenever a tracked connection closes (during a shutdown: to notice the last one). */
  #onSocketClosed: (() => void) | null = null;
  #closing: Promise<CloseResult> | null = null;
  #isStopping = false;

  constructor(services: readonly Service[], gracePeriod: number, errorLog: ((message: string) => void) | null) {
    this.#services = services;
    this.#gracePeriod = gracePeriod;
    this.#errorLog = errorLog;
  }

  /** True from the moment close() is called: /_health answers 503 "stopping". */
  get isStopping(): boolean {
    return this.#isStopping;
  }

  /** Follows a server's connections from its start, so that close() can drain them one by one. */
  track(server: Server): void {
    const sockets = new Set<Socket>();
    this.#servers.set(server, sockets);
    server.on('connection', (socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => {
        sockets.delete(socket);
        this.#onSocketClosed?.();
      });
    });
  }

  close(options: CloseOptions = {}): Promise<CloseResult> {
    this.#closing ??= this.#close(options);
    return this.#closing;
  }

  async #close(options: CloseOptions): Promise<CloseResult> {
    this.#isStopping = true;
    const gracePeriod = options.gracePeriod ?? this.#gracePeriod;
    const graceEndsAt = Date.now() + gracePeriod;
    const tracked = [...this.#servers].filter(([server]) => server.listening);
    // close() right after listen(): a server still binding would bind anyway and stay open; it closes once bound.
    for (const [server] of this.#servers) if (!server.listening) server.once('listening', () => server.close());
    const others = (options.servers ?? []).filter((server) => !this.#servers.has(server) && server.listening);

    let deadline: NodeJS.Timeout | undefined;
    let cutConnections = 0;
    const closed = [...tracked.map(([server]) => server), ...others].map((server) => {
      server.prependListener('request', lastOnConnection);
      return new Promise<void>((resolve) => (this.#servers.has(server) ? stopAccepting(server, resolve) : server.close(() => resolve())));
    });
    // server.close() waits only for the connections it accepted itself; a connection handed to the server
    // (a cluster worker's, from the primary) is waited for here.
    closed.push(
      new Promise<void>((resolve) => {
        const isDrained = () => tracked.every(([, sockets]) => sockets.size === 0);
        if (isDrained()) return resolve();
        this.#onSocketClosed = () => {
          if (isDrained()) resolve();
        };
      }),
    );
    // A request already running answers `Connection: close` too, when its headers are not out yet.
    for (const [, sockets] of tracked) {
      for (const socket of sockets) {
        const response = responseOf(socket);
        if (response !== null && !response.headersSent) response.setHeader('Connection', 'close');
      }
    }
    const idleSince = new WeakMap<Socket, number>();
    const sweep = setInterval(() => {
      // Connections of servers app.listen did not start are not followed: Node closes those that are idle now.
      for (const server of others) server.closeIdleConnections();
      const now = Date.now();
      for (const [, sockets] of tracked) {
        for (const socket of sockets) {
          if (responseOf(socket) !== null) idleSince.delete(socket);
          else if (!idleSince.has(socket)) idleSince.set(socket, now);
          else if (now - idleSince.get(socket)! >= IDLE_CONNECTION_CLOSE_MS) socket.destroy();
        }
      }
    }, SWEEP_MS);
    const graceEnded = new Promise<void>((resolve) => {
      deadline = setTimeout(() => {
        for (const [, sockets] of tracked) {
          for (const socket of sockets) {
            if (responseOf(socket) !== null) cutConnections++;
            socket.destroy();
          }
        }
        for (const server of others) server.closeAllConnections();
        resolve();
      }, gracePeriod);
    });
    try {
      await Promise.race([Promise.all(closed), graceEnded]);
      await Promise.all(closed);
    } finally {
      clearInterval(sweep);
      clearTimeout(deadline);
      this.#onSocketClosed = null;
    }
    const closeBy = Math.max(graceEndsAt, Date.now() + MIN_DATABASE_CLOSE_MS);
    const abandonedDatabases = options.closeDatabases === false ? [] : await closeDatabases(this.#services, closeBy, this.#errorLog);
    return { cutConnections, abandonedDatabases };
  }
}
