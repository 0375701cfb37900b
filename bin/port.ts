// The PORT rules of spec §8.1 as pure functions: which source wins, and what counts as a valid port.
// Nothing here reads process.env or exits; bin/commands decide what to do with a PortError.

/** Spec §8: the port of dev and start when neither `--port` nor `PORT` is given. */
export const DEFAULT_PORT = 4000;

const MIN_PORT = 1;
const MAX_PORT = 65535;
// Decimal digits only: rejects '', ' 80', '80abc', '1e3', '0x50', '-1' and '3.5' before Number() sees them.
const DECIMAL_DIGITS = /^[0-9]+$/;

/** A port value that is not an integer from 1 to 65535; the message names its source. */
export class PortError extends Error {
  override name = 'PortError';
}

export interface PortSources {
  /** The explicit `--port` value, exactly as typed. */
  flag?: string | number;
  /** The `PORT` environment variable, exactly as set. */
  env?: string;
  /** Used when neither flag nor env is given (spec §8: 4000). */
  fallback?: number;
}

/**
 * Spec §8.1: explicit `--port`, then `PORT`, then the fallback. The chosen value must be an integer
 * from 1 to 65535, or a PortError is thrown. A value that is set but empty counts as given (and invalid).
 */
export function resolvePort({ flag, env, fallback = DEFAULT_PORT }: PortSources): number {
  if (flag !== undefined) return parsePort(flag, '--port');
  if (env !== undefined) return parsePort(env, 'PORT');
  return parsePort(fallback, 'fallback port');
}

/** Parses one port value; `source` names it in the error (`PORT`, `--port`). */
export function parsePort(value: string | number, source: string): number {
  const text = String(value);
  const port = DECIMAL_DIGITS.test(text) ? Number(text) : Number.NaN;
  if (!(port >= MIN_PORT && port <= MAX_PORT)) {
    // JSON.stringify keeps the message on one line whatever the value holds.
    throw new PortError(
      `invalid ${source} ${JSON.stringify(text)}: expected an integer from ${MIN_PORT} to ${MAX_PORT}`,
    );
  }
  return port;
}
