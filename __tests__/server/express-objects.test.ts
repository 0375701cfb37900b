// app.listen builds Express's request and response objects directly (runtime/server/express-objects.ts):
// what users rely on is that they are Express's objects, and that listen behaves as Express 5's does.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from 'tessera';
import { useServerTestbed } from '../helpers/server-testbed';

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

describe('app.listen of createServer', () => {
  useServerTestbed();

  it('serves requests and responses that are already the app\'s Express objects (req.get, res.json, req.app)', async () => {
    const seen: boolean[] = [];
    const app = createServer({
      requestLogging: false,
      endpoints: [
        {
          method: 'GET',
          path: '/whoami',
          handler: (req, res) => {
            seen.push(Object.getPrototypeOf(req) === app.request, Object.getPrototypeOf(res) === app.response);
            res.json({ agent: req.get('x-agent'), sameApp: req.app === app });
          },
        },
      ],
    });
    const server = app.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/whoami`, { headers: { 'x-agent': 'test' } });
      expect(await answer.json()).toEqual({ agent: 'test', sameApp: true });
      expect(seen).toEqual([true, true]);
    } finally {
      await closeServer(server);
    }
  });

  it('passes a listen error to the callback, as Express 5 does', async () => {
    const first = createServer({ requestLogging: false }).listen(0);
    await new Promise((resolve) => first.once('listening', resolve));
    try {
      const port = (first.address() as AddressInfo).port;
      const error = await new Promise<unknown>((resolve) => createServer({ requestLogging: false }).listen(port, resolve));
      expect(error).toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await closeServer(first);
    }
  });
});
