// The connection timeouts of the servers app.listen starts (docs/server-options.md): a client that is
// slow or stuck sending its request is answered 408 and disconnected, so it cannot hold the server.
// Real slow clients over TCP, with short timeouts; the defaults are read from the server.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer, type ServerOptions } from 'tessera-api';
import { RawConnection } from '../helpers/raw-connection';
import { useServerTestbed } from '../helpers/server-testbed';

const REQUEST_TIMEOUT = 'HTTP/1.1 408 Request Timeout';

describe('connection timeouts of app.listen', () => {
  useServerTestbed();
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
  });

  async function start(options: ServerOptions): Promise<{ server: Server; port: number }> {
    const app = createServer({ requestLogging: false, compiler: false, ...options });
    const server = app.listen(0, '127.0.0.1');
    servers.push(server);
    await new Promise((resolve) => server.once('listening', resolve));
    return { server, port: (server.address() as AddressInfo).port };
  }

  /** Sends `pieces` one by one, a little apart, until the server closes the connection; answers what it said. */
  async function trickle(port: number, first: string, piece: string): Promise<string> {
    const client = await RawConnection.open(port);
    client.write(first);
    const timer = setInterval(() => client.socket.writable && client.write(piece), 50);
    await client.closed();
    clearInterval(timer);
    return client.pending;
  }

  it('has defaults that bound a slow client: 10 s for headers, 30 s for the whole request, 5 s keep-alive', async () => {
    const { server } = await start({});
    expect({ headersTimeout: server.headersTimeout, requestTimeout: server.requestTimeout, keepAliveTimeout: server.keepAliveTimeout }).toEqual({
      headersTimeout: 10_000,
      requestTimeout: 30_000,
      keepAliveTimeout: 5_000,
    });
  });

  it('answers 408 and disconnects a client that connects and sends nothing (headersTimeout)', async () => {
    const { port } = await start({ headersTimeout: 300, requestTimeout: 2000 });
    const silent = await RawConnection.open(port);
    await silent.closed();
    expect(silent.pending).toMatch(new RegExp(`^${REQUEST_TIMEOUT}`));
  });

  it('answers 408 and disconnects a client that sends its headers a line at a time, never finishing (headersTimeout)', async () => {
    const { port } = await start({ headersTimeout: 300, requestTimeout: 60_000 });
    expect(await trickle(port, 'GET /_health HTTP/1.1\r\nHost: x\r\n', 'X-Slow: 1\r\n')).toMatch(new RegExp(`^${REQUEST_TIMEOUT}`));
  });

  it('answers 408 and disconnects a client that sends its body a byte at a time (requestTimeout)', async () => {
    const { port } = await start({ headersTimeout: 300, requestTimeout: 600 });
    const head = 'POST /api/notes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n';
    expect(await trickle(port, head, ' ')).toMatch(new RegExp(`^${REQUEST_TIMEOUT}`));
  });

  it('closes an idle kept-alive connection after keepAliveTimeout, and announces it', async () => {
    const { port } = await start({ keepAliveTimeout: 1000 });
    const client = await RawConnection.open(port);
    const answer = await client.request('GET', '/_health');
    expect(answer.headers['keep-alive']).toBe('timeout=1');
    await client.closed();
    expect(client.error).toBeNull();
  });

  it('serves a client that is merely slow within the timeouts', async () => {
    const { port } = await start({ headersTimeout: 2000, requestTimeout: 4000 });
    const client = await RawConnection.open(port);
    const body = JSON.stringify({ title: 'slow but fine' });
    client.write(`POST /api/notes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    const answer = client.response();
    await new Promise((resolve) => setTimeout(resolve, 300));
    client.write(body);
    expect((await answer).status).toBe(201);
    client.end();
  });

  it.each([
    [{ headersTimeout: -1 }, 'headersTimeout must be a whole number of milliseconds (0 or more), got -1'],
    [{ requestTimeout: 1.5 }, 'requestTimeout must be a whole number of milliseconds (0 or more), got 1.5'],
    [{ keepAliveTimeout: '5s' as never }, 'keepAliveTimeout must be a whole number of milliseconds (0 or more), got "5s"'],
    [{ headersTimeout: 20_000, requestTimeout: 10_000 }, 'headersTimeout (20000 ms) must not be longer than requestTimeout (10000 ms)'],
  ])('refuses %j at construction', (options, message) => {
    expect(() => createServer(options)).toThrow(message);
  });
});
