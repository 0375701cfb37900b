// Records every request an application answers, on the request path, with no I/O and nothing allocated
// per request beyond a few numbers: the first layer notes the start time and one shared 'close' listener;
// each action route's chain starts with a tag naming its operation; the listener counts the answer.
// Everything a tag or the listener needs is resolved here at construction.
import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { RequestHandler } from 'express';
import { OperationCounters } from './operation-counters';
import type { OperationDelta } from './telemetry-report';

/** CONTRACT §8: the operation of a request no action route answered. */
export const UNMATCHED = 'unmatched';
/** A client that went away before any answer was sent (nginx's number for it). */
export const CLIENT_CLOSED_REQUEST = 499;

/** The fields the recorder keeps on a response: the same three on every response, so its shape stays one. */
interface TrackedResponse extends ServerResponse {
  tesseraStart: number;
  tesseraEntry: OperationEntry | undefined;
  tesseraErrorCode: string | null;
}

/** An operation of one recorder: its counters for the route's own method, and for others (HEAD on a GET route). */
class OperationEntry {
  readonly recorder: RequestRecorder;
  readonly operation: string;
  readonly #method: string | null;
  readonly #primary: OperationCounters | null;
  readonly #others = new Map<string, OperationCounters>();

  constructor(recorder: RequestRecorder, operation: string, method: string | null) {
    this.recorder = recorder;
    this.operation = operation;
    this.#method = method;
    this.#primary = method === null ? null : recorder.countersFor(operation, method);
  }

  counters(method: string): OperationCounters {
    if (method === this.#method) return this.#primary!;
    let counters = this.#others.get(method);
    if (counters === undefined) this.#others.set(method, (counters = this.recorder.countersFor(this.operation, method)));
    return counters;
  }
}

/** The 'close' listener of every tracked response: one function, so adding it allocates no closure. */
function onResponseClose(this: TrackedResponse): void {
  const entry = this.tesseraEntry!;
  const micros = (performance.now() - this.tesseraStart) * 1000;
  entry.recorder.inFlight--;
  entry.counters(this.req.method ?? 'GET').record(this.headersSent && !(this.socket !== null && this.socket.destroyed) ? this.statusCode : CLIENT_CLOSED_REQUEST, this.tesseraErrorCode, micros);
}

export class RequestRecorder {
  /** Requests being answered now. */
  inFlight = 0;
  readonly #counters: OperationCounters[] = [];
  readonly #unmatched: OperationEntry;

  constructor() {
    this.#unmatched = new OperationEntry(this, UNMATCHED, null);
  }

  /** @internal The counters of one operation and method (created once, kept for every drain). */
  countersFor(operation: string, method: string): OperationCounters {
    const counters = new OperationCounters(operation, method);
    this.#counters.push(counters);
    return counters;
  }

  /** The application's first layer: starts the clock for every request, as `unmatched` until a route's tag says otherwise. */
  startLayer(): RequestHandler {
    const unmatched = this.#unmatched;
    const recorder = this;
    return function startTelemetry(_req, res, next) {
      const tracked = res as unknown as TrackedResponse;
      // An application mounted inside another that records too: the outer one has it already.
      if (tracked.tesseraEntry !== undefined) return next();
      tracked.tesseraStart = performance.now();
      tracked.tesseraEntry = unmatched;
      tracked.tesseraErrorCode = null;
      recorder.inFlight++;
      res.on('close', onResponseClose);
      next();
    };
  }

  /** The first handler of an action route's chain: the request belongs to `operation` (its operationId). */
  tag(operation: string, method: string): RequestHandler {
    const entry = new OperationEntry(this, operation, method);
    return function tagOperation(_req, res, next) {
      const tracked = res as unknown as TrackedResponse;
      if (tracked.tesseraEntry !== undefined && tracked.tesseraEntry.recorder === entry.recorder) tracked.tesseraEntry = entry;
      next();
    };
  }

  /** What was counted since the previous drain, per operation and method; counters start again from zero. */
  drain(): OperationDelta[] {
    const deltas: OperationDelta[] = [];
    for (const counters of this.#counters) {
      const delta = counters.drain();
      if (delta !== null) deltas.push(delta);
    }
    return deltas;
  }
}

/** Called by the error middleware: the CONTRACT §4 code of the answer it sends, for the error counts. */
export function noteErrorCode(res: ServerResponse, code: string): void {
  (res as TrackedResponse).tesseraErrorCode = code;
}
