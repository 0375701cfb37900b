// `app.listen` of a Tessera application: Express 5's listen (same arguments, a listen error passed to the
// callback), on a server that constructs Express's objects directly, applies the connection timeouts and
// is followed by app.close().
import http from 'node:http';
import type { Express } from 'express';
import { expressObjectOptions } from './express-objects';
import type { ServerLifecycle } from './graceful-close';
import type { ServerTimeouts } from './server-timeouts';

export function installListen(app: Express, timeouts: ServerTimeouts, lifecycle: ServerLifecycle): void {
  const options: http.ServerOptions = {
    ...expressObjectOptions(app),
    headersTimeout: timeouts.headersTimeout,
    requestTimeout: timeouts.requestTimeout,
    connectionsCheckingInterval: timeouts.connectionsCheckingInterval,
  };
  (app as { listen: unknown }).listen = function listen(...args: unknown[]) {
    const server = http.createServer(options, app);
    server.keepAliveTimeout = timeouts.keepAliveTimeout;
    lifecycle.track(server);
    const last = args[args.length - 1];
    if (typeof last === 'function') {
      let called = false;
      const done = (...results: unknown[]) => {
        if (called) return;
        called = true;
        (last as (...results: unknown[]) => void)(...results);
      };
      args[args.length - 1] = done;
      server.once('error', done);
    }
    return server.listen(...(args as Parameters<typeof server.listen>));
  };
}
