// app.listen builds Express's request and response objects directly (runtime/server/express-objects.ts):
// what users rely on is that they are Express's objects, and that listen behaves as Express 5's does.
import { execFileSync } from 'node:child_process';
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createServer } from 'tessera-api';
import { REPO_ROOT } from '../helpers/bundles';
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

  it('constructs objects V8 keeps in fast mode, and leaves req.constructor Node\'s (the installed package)', () => {
    // A process of its own, with V8's natives syntax: a response turned into a hash table of properties costs
    // every property access of every request (the get route answered 30% fewer requests on the benchmark).
    const script = `const { createServer } = require(${JSON.stringify(path.join(REPO_ROOT, 'lib/runtime/index.js'))});
      const seen = [];
      const app = createServer({ requestLogging: false, endpoints: [{ method: 'GET', path: '/shape', handler: (req, res) => {
        seen.push({ request: %HasFastProperties(req), response: %HasFastProperties(res), constructors: [req.constructor.name, res.constructor.name] });
        res.json({ sameApp: req.app === app });
        seen.push({ afterAnswer: %HasFastProperties(res) });
      } }] });
      const server = app.listen(0, async () => {
        const answers = [];
        for (let i = 0; i < 3; i++) answers.push(await (await fetch('http://127.0.0.1:' + server.address().port + '/shape')).json());
        server.close();
        console.log(JSON.stringify({ seen: seen.slice(-2), answers }));
      });`;
    const result = JSON.parse(execFileSync(process.execPath, ['--allow-natives-syntax', '-e', script], { encoding: 'utf8' }));
    expect(result).toEqual({
      seen: [{ request: true, response: true, constructors: ['IncomingMessage', 'ServerResponse'] }, { afterAnswer: true }],
      answers: [{ sameApp: true }, { sameApp: true }, { sameApp: true }],
    });
  });

  it('keeps what is added to app.response after createServer, and takes the parent app\'s request methods when mounted', async () => {
    const app = createServer({
      requestLogging: false,
      endpoints: [{ method: 'GET', path: '/added', handler: (req, res) => res.json({ fromRequest: (req as any).greeting, fromResponse: (res as any).tag() }) }],
    });
    const parent = express();
    (parent.request as any).greeting = 'from the parent';
    parent.use('/inner', app);
    (app.response as any).tag = () => 'tagged';
    const server = parent.listen(0);
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/inner/added`);
      expect(await answer.json()).toEqual({ fromRequest: 'from the parent', fromResponse: 'tagged' });
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
