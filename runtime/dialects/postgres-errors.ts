// The PostgreSQL SQLSTATEs Tessera answers as client errors, unavailability or a logged reason (CONTRACT §4):
// 23505 for unique and 23503 for foreign-key violations.
import { SOCKET_ERROR_CODES, type DriverCodes, type DriverReason, type UnavailableSignals } from './driver-errors';

export const DRIVER_CODES: DriverCodes = {
  unique: new Set(['23505']),
  foreignKey: new Set(['23503']),
  // Class 22, data exceptions: too long, out of range, NUL or bad encoding, bad text or datetime representation.
  invalidValue: new Set(['22001', '22003', '22021', '22P02', '22P05', '22007', '22008']),
};

/** deadlock_detected: PostgreSQL rolled the whole transaction back (a write of several statements runs again). */
export const DEADLOCK_SQLSTATE = '40P01';

/** PostgreSQL's messages (by SQLSTATE) that name only identifiers; anything else is logged by SQLSTATE alone. */
export const REASONS: readonly DriverReason[] = [
  { code: '42P01', message: /^relation "([^"]+)" does not exist$/, reason: ([table]) => `no such table: ${table}` },
  { code: '42703', message: /^column "?([^" ]+)"? (?:of relation "[^"]+" )?does not exist$/, reason: ([column]) => `no such column: ${column}` },
  { code: '3D000', message: /^database "([^"]+)" does not exist$/, reason: ([database]) => `no such database: ${database}` },
  { code: DEADLOCK_SQLSTATE, message: /^deadlock detected$/, reason: () => 'deadlock' },
];

/** The server cannot be reached, is going away or refuses sessions for now; pg's pool or client gave up on it. */
export const UNAVAILABLE: UnavailableSignals = {
  codes: new Set([
    ...SOCKET_ERROR_CODES,
    // Class 08, connection exception; 57P01-03 admin or crash shutdown, starting up; 53300 too many connections;
    // 57014 a statement cancelled, by the statement_timeout Tessera sets (database-timeouts.ts) or an operator;
    // 08P01 what PgBouncer answers when it cannot give the client a server connection (login failed, server down,
    // query_wait_timeout).
    '08000', '08001', '08003', '08004', '08006', '08P01', '57P01', '57P02', '57P03', '53300', '57014',
  ]),
  // pg and pg-pool raise these without a code.
  messages: new Set([
    'Connection terminated unexpectedly',
    'Connection terminated',
    'Connection terminated due to connection timeout',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error and is not queryable',
    'Client was closed and is not queryable',
    'Cannot use a pool after calling end on the pool',
    'Query read timeout',
  ]),
};
