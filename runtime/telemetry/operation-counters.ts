// The counters of one operation and method in one process since the last report: requests by status and
// error code, a latency histogram and the latest error. Fixed storage, so recording allocates nothing.
import { LatencyHistogram } from './latency-histogram';
import type { OperationDelta } from './telemetry-report';

/** Statuses are counted in a fixed array; a status outside 100..599 counts as 0 (it cannot be sent anyway). */
const STATUS_SLOTS = 600;

/** The code of an error answer that carries no CONTRACT §4 code (an endpoint's own 403, a client that left). */
export function statusCode(status: number): string {
  return `HTTP_${status}`;
}

export class OperationCounters {
  readonly operation: string;
  readonly method: string;
  requests = 0;
  readonly #statuses = new Float64Array(STATUS_SLOTS);
  /** Error codes: only error answers touch it, and a code already seen is an update, not an allocation. */
  readonly #codes = new Map<string, number>();
  readonly #latency = new LatencyHistogram();
  #lastErrorCode: string | null = null;
  #lastErrorAt = 0;

  constructor(operation: string, method: string) {
    this.operation = operation;
    this.method = method;
  }

  /** Hot path: one answered request. `code` is the error code the error middleware sent, or null. */
  record(status: number, code: string | null, micros: number): void {
    this.requests++;
    this.#statuses[status >= 100 && status < STATUS_SLOTS ? status : 0]++;
    this.#latency.record(micros);
    if (status >= 400) {
      const errorCode = code ?? statusCode(status);
      this.#codes.set(errorCode, (this.#codes.get(errorCode) ?? 0) + 1);
      this.#lastErrorCode = errorCode;
      this.#lastErrorAt = Date.now();
    }
  }

  /** What was counted since the previous drain, and a fresh start; null when nothing was. */
  drain(): OperationDelta | null {
    if (this.requests === 0) return null;
    const statuses: Record<string, number> = {};
    for (let status = 0; status < STATUS_SLOTS; status++) if (this.#statuses[status] !== 0) statuses[status] = this.#statuses[status];
    const codes: Record<string, number> = {};
    for (const [code, count] of this.#codes) if (count !== 0) codes[code] = count;
    const delta: OperationDelta = {
      operation: this.operation,
      method: this.method,
      requests: this.requests,
      statuses,
      codes,
      latency: this.#latency.toSparse(),
      lastError: this.#lastErrorCode === null ? null : { code: this.#lastErrorCode, at: this.#lastErrorAt },
    };
    this.requests = 0;
    this.#statuses.fill(0);
    // Keep the keys (the codes an operation answers repeat): zeroed counts are skipped above.
    for (const code of this.#codes.keys()) this.#codes.set(code, 0);
    this.#latency.reset();
    this.#lastErrorCode = null;
    return delta;
  }
}
