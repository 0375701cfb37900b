// Requests and responses born with Express's prototypes, for the servers `app.listen` starts (listen.ts).
// Express gives each request its `req`/`res` methods by swapping the prototypes of Node's objects (`Object.setPrototypeOf`) on every
// request, and V8 answers each swap by throwing away what it learned about those objects' shapes: on this
// project's benchmark that costs more than the query. Node's server can construct them with the right
// prototype instead, so Express's swap becomes a no-op. The objects are the same ones Express builds.
import http from 'node:http';
import type { Express } from 'express';

type Constructor<T> = new (...args: any[]) => T;

/**
 * A subclass of `base` whose prototype stands in for `current` (the app's `request` or `response` object): the
 * same parent and the same own properties (`app`, and whatever was added to it), so Express's later re-parenting
 * of the app's object on mount behaves as it would have. A class, not a function that calls `base` on `this`:
 * V8 sizes a class's instances from its whole constructor chain, where a plain function's instances start small
 * and turn into hash tables (dictionary mode) after a dozen symbol-keyed properties, as a response has; that
 * costs every property access of every request, and 2 KB of garbage each.
 */
function expressClass<T extends object>(base: Constructor<T>, current: object): Constructor<T> {
  const ExpressObject = class extends base {};
  const prototype = ExpressObject.prototype as object;
  // `req.constructor` stays Node's class, as it is on Express's own objects.
  delete (prototype as { constructor?: unknown }).constructor;
  Object.setPrototypeOf(prototype, Object.getPrototypeOf(current));
  Object.defineProperties(prototype, Object.getOwnPropertyDescriptors(current));
  return ExpressObject;
}

/**
 * The http.Server options that construct Express's request and response objects for `app`. Replaces
 * `app.request` and `app.response` by their stand-ins, whose instances the server then constructs.
 */
export function expressObjectOptions(app: Express): Pick<http.ServerOptions, 'IncomingMessage' | 'ServerResponse'> {
  const IncomingMessage = expressClass(http.IncomingMessage, app.request);
  const ServerResponse = expressClass(http.ServerResponse, app.response);
  app.request = IncomingMessage.prototype as Express['request'];
  app.response = ServerResponse.prototype as Express['response'];
  return { IncomingMessage, ServerResponse } as Pick<http.ServerOptions, 'IncomingMessage' | 'ServerResponse'>;
}
