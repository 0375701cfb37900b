// Why a database could not be reached at start-up (issue 32), as one line an operator can act on: the service,
// the dialect, host:port/database, and the driver's reason in fixed words. Never the password, the SQL or its
// parameters: Drizzle's message ("Failed query: select attname …") holds both.
import { driverErrorOf } from '../dialects/driver-errors';
import type { Service } from '../service';

/** Fixed words per driver code (Node's socket codes, SQLSTATEs, MySQL errnos) or driver message without a code. */
const REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'no such host',
  EAI_AGAIN: 'the host name could not be resolved',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  '28P01': 'authentication failed (wrong user name or password)',
  '28000': 'authentication failed (no such role, or not allowed to connect)',
  1045: 'authentication failed (wrong user name or password)',
  '3D000': 'no such database',
  1049: 'no such database',
  '57P03': 'the server is starting up',
  '53300': 'too many connections',
  1040: 'too many connections',
  1698: 'authentication failed (the user may sign in only another way, such as unix_socket)',
};

/** Driver messages without a code that say what is wrong in fixed words of their own. */
const MESSAGES: ReadonlyMap<string, string> = new Map([['The server does not support SSL connections', 'the server does not support SSL, which the connection asks for (sslmode, ssl)']]);

/** A statement Drizzle ran failed (DrizzleQueryError: its message holds the SQL), the driver's error its cause. */
function isFailedStatement(error: unknown): boolean {
  return typeof error === 'object' && error !== null && typeof (error as { query?: unknown }).query === 'string' && (error as { cause?: unknown }).cause !== undefined;
}

type Bound = 'connect' | 'acquire' | 'statement';
/** The drivers' "no answer in time" (pg's carry no code), and which bound it was. */
const NO_ANSWER: ReadonlyMap<string, Bound> = new Map([
  ['Connection terminated due to connection timeout', 'connect'],
  ['timeout exceeded when trying to connect', 'connect'],
  ['Query read timeout', 'statement'],
  ['ETIMEDOUT', 'connect'],
  ['PROTOCOL_SEQUENCE_TIMEOUT', 'statement'],
  ['TESSERA_ACQUIRE_TIMEOUT', 'acquire'],
]);

/** The reason in fixed words, with the driver's code; null when the error is not a driver's (an application bug). */
export function unreachableReason(error: unknown, timeouts: Service['timeouts']): string | null {
  const driver = driverErrorOf(error);
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== null && typeof current === 'object'; depth++) {
    const bound = NO_ANSWER.get(String((current as { message?: unknown }).message)) ?? NO_ANSWER.get(String((current as { code?: unknown }).code));
    if (bound !== undefined) return timeouts === null ? 'no answer' : `no answer within ${timeouts[bound]} ms`;
    current = (current as { cause?: unknown }).cause;
  }
  for (let depth = 0, at: unknown = error; depth < 5 && at !== null && typeof at === 'object'; depth++, at = (at as { cause?: unknown }).cause) {
    const words = MESSAGES.get(String((at as { message?: unknown }).message));
    if (words !== undefined) return words;
  }
  // The catalog query at start failed for a reason without a code: the setup's, not the application's.
  if (driver === null) return isFailedStatement(error) ? "the first statement failed (DEBUG=tessera shows the driver's message)" : null;
  const code = String(driver.errno !== undefined && typeof driver.errno === 'number' && driver.errno >= 1000 ? driver.errno : driver.code);
  const words = REASONS[code];
  return words === undefined ? `the driver failed with ${code}` : `${words} (${code})`;
}

/** `the database of service blog (postgres at 127.0.0.1:5432/app) cannot be reached: connection refused (ECONNREFUSED)` */
export function describeUnreachable(service: Service, reason: string): string {
  return `the database of service ${service.name} (${service.dialect.name} at ${service.dialect.describeTarget(service.db)}) cannot be reached: ${reason}`;
}
