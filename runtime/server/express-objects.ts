// `app.listen` with requests and responses born with Express's prototypes. Express gives each request its
// `req`/`res` methods by swapping the prototypes of Node's objects (`Object.setPrototypeOf`) on every
// request, and V8 answers each swap by throwing away what it learned about those objects' shapes: on this
// project's benchmark that costs more than the query. Node's server can construct them with the right
// prototype instead, so Express's swap becomes a no-op. The objects are the same ones Express builds.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Express } from 'express';

type Constructor<T> = new (...args: any[]) => T;

/** A constructor of `base`'s objects whose prototype is `prototype` (what Express would set). */
function bornWith<T>(base: Constructor<T>, prototype: object): Constructor<T> {
  function ExpressObject(...args: unknown[]): T {
    // Reflect.construct takes the prototype from ExpressObject, and works whether base is a class or a function.
    return Reflect.construct(base, args, ExpressObject);
  }
  ExpressObject.prototype = prototype;
  return ExpressObject as unknown as Constructor<T>;
}

/** Replaces `app.listen` with one whose server constructs Express's request and response objects directly. */
export function listenWithExpressObjects(app: Express): void {
  const options = {
    IncomingMessage: bornWith<IncomingMessage>(http.IncomingMessage, app.request),
    ServerResponse: bornWith<ServerResponse>(http.ServerResponse, app.response),
  } as http.ServerOptions;
  // Express 5's listen, with those options: a callback also receives a listen error.
  (app as { listen: unknown }).listen = function listen(...args: unknown[]) {
    const server = http.createServer(options, app);
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
