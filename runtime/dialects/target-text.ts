// How a database's address is named in messages (`127.0.0.1:5432/shop`): host, port and database as the driver
// resolved them, each part only when it is a plain name. A mistyped connection string (`postgres:/user:secret@host/db`,
// a scheme without its `//`) leaves the driver reading the rest of it, password included, as the database's name or
// the host's: such a part is not repeated, only said to be wrong (cli-and-bundles.md: never the password).

/** Host names, IPv4 addresses and Unix socket folders, or an IPv6 address (hex digits and colons, in brackets or not). */
const PLAIN_HOST = /^(?:[A-Za-z0-9._\-/]{1,255}|\[?[0-9A-Fa-f]*:[0-9A-Fa-f:.]*\]?)$/;
/** Database names as people write them (PostgreSQL and MySQL allow more, quoted; a URL would encode those). */
const PLAIN_DATABASE = /^[A-Za-z0-9_$.-]{0,64}$/;
/** A port number: a mistyped string can leave the password where the port was expected (`host:secret`). */
const PLAIN_PORT = /^\d{1,5}$/;
const NOT_PLAIN = '(not a plain name: check the connection string)';

export function targetText(host: unknown, port: unknown, database: unknown): string {
  const hostText = PLAIN_HOST.test(String(host)) ? String(host) : NOT_PLAIN;
  const databaseText = PLAIN_DATABASE.test(String(database)) ? String(database) : NOT_PLAIN;
  const portText = PLAIN_PORT.test(String(port)) ? String(port) : NOT_PLAIN;
  return `${hostText}:${portText}/${databaseText}`;
}
