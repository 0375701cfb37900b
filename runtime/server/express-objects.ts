// `app.listen` with requests and responses born with Express's prototypes. Express gives each request its
// `req`/`res` methods by swapping the prototypes of Node's objects (`Object.setPrototypeOf`) on every
// request, and V8 answers each swap by throwing away what it learned about those objects' shapes: on this
// project's benchmark that costs more than the query. Node's server can construct them with the right
// prototype instead, so Express's swap becomes a no-op. The objects are the same ones Express builds.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Express } from 'express';

type Constructor<T> = new (...args: any[]) => T;

/**
 * A constructor that runs `base` on objects whose prototype is `prototype` (what Express would set). Node's
 * IncomingMessage and ServerResponse are plain functions, so they run on `this` like a superclass constructor
 * (Reflect.construct would work for classes too, but halves the throughput: V8 cannot inline it).
 */
function bornWith<T>(base: Function, prototype: object): Constructor<T> {
  function ExpressObject(this: object, ...args: unknown[]) {
    base.apply(this, args);
  }
  ExpressObject.prototype = prototype;
  return ExpressObject as unknown as Constructor<T>;
}

function isClass(base: Function): boolean {
  return Function.prototype.toString.call(base).startsWith('class');
}

/** Replaces `app.listen` with one whose server constructs Express's request and response objects directly. */
export function listenWithExpressObjects(app: Express): void {
  // A Node whose IncomingMessage became a class keeps Express's own listen (and its per-request cost).
  if (isClass(http.IncomingMessage) || isClass(http.ServerResponse)) return;
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
