// The MySQL and MariaDB error numbers Tessera answers as client errors, unavailability or a logged reason
// (CONTRACT §4): errno 1062 for unique and 1216/1217/1451/1452 for foreign-key violations.
import { SOCKET_ERROR_CODES, type DriverCodes, type DriverReason, type UnavailableSignals } from './driver-errors';
import { ACQUIRE_TIMEOUT_CODE } from './mysql-pool';

export const DRIVER_CODES: DriverCodes = {
  unique: new Set([1062, 1586]),
  foreignKey: new Set([1216, 1217, 1451, 1452]),
  // Data too long, out of range, incorrect value, truncated value: what strict mode refuses to store.
  invalidValue: new Set([1406, 1264, 1366, 1292, 1367]),
};

/** ER_LOCK_DEADLOCK: InnoDB rolled the whole transaction back (a write of several statements runs again). */
export const DEADLOCK_ERRNO = 1213;

/** MySQL's messages (by errno) that name only identifiers; anything else is logged by errno alone. */
export const REASONS: readonly DriverReason[] = [
  { code: 1146, message: /^Table '([^']+)' doesn't exist$/, reason: ([table]) => `no such table: ${table}` },
  { code: 1054, message: /^Unknown column '([^']+)' in '[^']+'$/, reason: ([column]) => `no such column: ${column}` },
  { code: 1049, message: /^Unknown database '([^']+)'$/, reason: ([database]) => `no such database: ${database}` },
  { code: DEADLOCK_ERRNO, message: /^Deadlock found/, reason: () => 'deadlock' },
  { code: 1205, message: /^Lock wait timeout exceeded/, reason: () => 'lock wait timeout' },
];

/** The server cannot be reached, is shutting down or refuses connections for now; mysql2 lost or closed the connection. */
export const UNAVAILABLE: UnavailableSignals = {
  codes: new Set<string | number>([
    ...SOCKET_ERROR_CODES,
    'PROTOCOL_CONNECTION_LOST',
    'PROTOCOL_SEQUENCE_TIMEOUT',
    ACQUIRE_TIMEOUT_CODE,
    // Server shutdown in progress, connection killed (MariaDB), too many connections, idle connection closed (MySQL 8);
    // a statement past the server's own time bound (MariaDB 1969, MySQL 3024: mysql-pool.ts sets them).
    1053, 1927, 1040, 1203, 4031, 1969, 3024,
  ]),
  // mysql2 raises these without a code.
  messages: new Set(['Pool is closed.', 'No connections available.', 'Queue limit reached.', "Can't add new command when connection is in closed state"]),
};
