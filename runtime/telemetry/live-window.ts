// The live tiles' window (CONTRACT §8): the last WINDOW_SECONDS of requests, errors and latencies, as a ring of
// one tick per second, each reused once its second has left the window.
import { LatencyHistogram } from './latency-histogram';

/** The live window of the tiles. */
export const WINDOW_SECONDS = 60;

/** One second of the window: what the reports of that second added up to. */
export interface Tick {
  second: number;
  requests: number;
  errors: number;
  serverErrors: number;
  readonly latency: LatencyHistogram;
}

export interface WindowTotals {
  readonly seconds: number;
  readonly requests: number;
  readonly errors: number;
  readonly serverErrors: number;
  readonly latency: LatencyHistogram;
}

export class LiveWindow {
  readonly #ticks: Tick[] = [];

  /** The tick of a second: a ring of WINDOW_SECONDS ticks, each reused once its second has left the window. */
  tick(second: number): Tick {
    const slot = ((second % WINDOW_SECONDS) + WINDOW_SECONDS) % WINDOW_SECONDS;
    let tick = this.#ticks[slot];
    if (tick === undefined) this.#ticks[slot] = tick = { second, requests: 0, errors: 0, serverErrors: 0, latency: new LatencyHistogram() };
    if (tick.second !== second) {
      tick.second = second;
      tick.requests = tick.errors = tick.serverErrors = 0;
      tick.latency.reset();
    }
    return tick;
  }

  /** The last WINDOW_SECONDS (fewer just after the start): requests, errors and the latency histogram. */
  totals(now: number, startedAt: number): WindowTotals {
    const newest = Math.floor(now / 1000);
    const seconds = Math.min(WINDOW_SECONDS, Math.max(1, (now - startedAt) / 1000));
    const latency = new LatencyHistogram();
    let requests = 0;
    let errors = 0;
    let serverErrors = 0;
    for (const tick of this.#ticks) {
      if (tick === undefined || tick.second <= newest - WINDOW_SECONDS || tick.second > newest) continue;
      requests += tick.requests;
      errors += tick.errors;
      serverErrors += tick.serverErrors;
      latency.add(tick.latency);
    }
    return { seconds, requests, errors, serverErrors, latency };
  }
}
