// The connection timeouts of the servers `app.listen` starts, and the shutdown grace period: defaults a
// public API can live with, checked once at construction. Node's own defaults (60 s for headers, 300 s for
// a request, timeouts checked every 30 s) let a slow or stuck client hold a connection for minutes.
import { SetupError } from '../errors';

/** Every duration option of createServer, in milliseconds, with its default. */
export const TIMEOUT_DEFAULTS = Object.freeze({
  /** Time a client has to send the request's headers; 408 and the connection closed after it. */
  headersTimeout: 10_000,
  /** Time a client has to send the whole request, body included; 408 and the connection closed after it. */
  requestTimeout: 30_000,
  /** How long an idle kept-alive connection stays open (Node's default; announced in `Keep-Alive: timeout=5`). */
  keepAliveTimeout: 5_000,
  /** app.close(): how long in-flight requests get to finish before their connections are cut. */
  shutdownGracePeriod: 10_000,
});

export type TimeoutOption = keyof typeof TIMEOUT_DEFAULTS;
export type ServerTimeouts = { readonly [option in TimeoutOption]: number } & {
  /** How often Node checks headersTimeout and requestTimeout: a fraction of the shorter one, at most 1 s. */
  readonly connectionsCheckingInterval: number;
};

const MAX_CHECKING_INTERVAL_MS = 1000;
const MIN_CHECKING_INTERVAL_MS = 10;

/** The timeouts of the options, defaults filled in; a SetupError names an option that is not a duration. */
export function resolveTimeouts(options: Partial<Record<TimeoutOption, unknown>>): ServerTimeouts {
  const resolved = { ...TIMEOUT_DEFAULTS } as Record<TimeoutOption, number>;
  for (const option of Object.keys(TIMEOUT_DEFAULTS) as TimeoutOption[]) {
    const value = options[option];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
      throw new SetupError(`${option} must be a whole number of milliseconds (0 or more), got ${JSON.stringify(value)}`);
    }
    resolved[option] = value;
  }
  const { headersTimeout, requestTimeout } = resolved;
  // Node refuses this combination when it creates the server; say so at construction instead.
  if (requestTimeout > 0 && headersTimeout > requestTimeout) {
    throw new SetupError(`headersTimeout (${headersTimeout} ms) must not be longer than requestTimeout (${requestTimeout} ms)`);
  }
  const shortest = Math.min(...[headersTimeout, requestTimeout].filter((timeout) => timeout > 0), MAX_CHECKING_INTERVAL_MS * 4);
  const connectionsCheckingInterval = Math.max(MIN_CHECKING_INTERVAL_MS, Math.floor(shortest / 4));
  return Object.freeze({ ...resolved, connectionsCheckingInterval });
}
