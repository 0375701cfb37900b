// Requests and responses born with Express's prototypes, for the servers `app.listen` starts (listen.ts).
// Express gives each request its `req`/`res` methods by swapping the prototypes of Node's objects (`Object.setPrototypeOf`) on every
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

/**
 * The http.Server options that construct Express's request and response objects for `app`; none on a Node
 * whose IncomingMessage became a class (it keeps Express's own prototype swap, and its per-request cost).
 */
export function expressObjectOptions(app: Express): Pick<http.ServerOptions, 'IncomingMessage' | 'ServerResponse'> {
  if (isClass(http.IncomingMessage) || isClass(http.ServerResponse)) return {};
  return {
    IncomingMessage: bornWith<IncomingMessage>(http.IncomingMessage, app.request),
    ServerResponse: bornWith<ServerResponse>(http.ServerResponse, app.response),
  } as Pick<http.ServerOptions, 'IncomingMessage' | 'ServerResponse'>;
}
