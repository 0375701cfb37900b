// How long Tessera waits for a database (issue 32): to open a connection, for a free pooled connection, and for
// a statement's answer. A hung server (frozen, or a network that drops packets) then answers 503 within these
// bounds instead of holding every request, the health route and a shutdown forever. Each networked dialect
// applies them to the driver's client (postgres-pool.ts, mysql-pool.ts); SQLite cannot hang this way.
import { SetupError } from '../errors';

/** `defineService({ timeouts })`, in milliseconds. */
export interface DatabaseTimeouts {
  /** Opening a connection (TCP and the server's handshake). Default 5,000. */
  connect?: number;
  /** Waiting for a free connection of the pool when all are busy. Default 5,000. */
  acquire?: number;
  /** One statement's answer. Default 10,000. */
  statement?: number;
}

export type EffectiveTimeouts = Required<DatabaseTimeouts>;

export const DEFAULT_DATABASE_TIMEOUTS: Readonly<EffectiveTimeouts> = Object.freeze({ connect: 5_000, acquire: 5_000, statement: 10_000 });

const KEYS = ['connect', 'acquire', 'statement'] as const;
/** Node's timers hold at most this (about 24.8 days); a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The timeouts a service declared, checked; a mistake is a setup error naming it. */
export function checkTimeouts(label: string, given: unknown): DatabaseTimeouts {
  if (given === undefined) return {};
  if (typeof given !== 'object' || given === null || Array.isArray(given)) throw new SetupError(`${label}: timeouts must be an object such as { statement: 10000 }`);
  const checked: DatabaseTimeouts = {};
  for (const [key, value] of Object.entries(given)) {
    if (!(KEYS as readonly string[]).includes(key)) throw new SetupError(`${label}: timeouts.${key} is not a timeout (${KEYS.join(', ')})`);
    if (value === undefined) continue;
    if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > MAX_TIMER_MS) {
      throw new SetupError(`${label}: timeouts.${key} must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS}`);
    }
    checked[key as keyof DatabaseTimeouts] = value as number;
  }
  return checked;
}

/** A timeout error of Tessera's own, with a code the dialects answer 503 (SERVICE_UNAVAILABLE). */
export function timeoutError(message: string, code: string): Error {
  return Object.assign(new Error(message), { code });
}
