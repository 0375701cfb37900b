// The node-postgres client behind a drizzle database: its timeouts (database-timeouts.ts) and where it connects,
// for start-up messages. pg's Pool gives its options object to each client it creates, so options set here
// before the first connection apply to every connection.
import { targetText } from './target-text';
import type { DatabaseTimeouts, EffectiveTimeouts } from './database-timeouts';
import { DEFAULT_DATABASE_TIMEOUTS } from './database-timeouts';

/**
 * The client-side bound on a statement comes this long after the server's own (`statement_timeout`): a server
 * that is alive cancels a slow statement itself, and the connection stays usable; one that is hung is given up.
 */
const CLIENT_MARGIN_MS = 1_000;

interface PgOptions {
  connectionTimeoutMillis?: number;
  query_timeout?: number;
  statement_timeout?: number;
  [key: string]: unknown;
}

/** The options pg reads: a Pool's `options`, or a Client's `connectionParameters` (already connected or not). */
function optionsOf(client: any): PgOptions | null {
  if (typeof client?.options === 'object' && client.options !== null) return client.options;
  return null;
}

/**
 * Sets the pool's connectionTimeoutMillis (pg bounds both opening a connection and waiting for a free one with it:
 * the smaller of `connect` and `acquire`), statement_timeout (the server's) and query_timeout (the client's, a
 * second later). A value the application set on its pool stays, unless the service's `timeouts` names it.
 */
export function applyPostgresTimeouts(client: any, given: DatabaseTimeouts): EffectiveTimeouts {
  const options = optionsOf(client);
  const positive = (value: unknown): number | undefined => (typeof value === 'number' && value > 0 ? value : undefined);
  const connectFallback = positive(options?.connectionTimeoutMillis);
  const connect = given.connect ?? connectFallback ?? DEFAULT_DATABASE_TIMEOUTS.connect;
  const acquire = given.acquire ?? connectFallback ?? DEFAULT_DATABASE_TIMEOUTS.acquire;
  const statement = given.statement ?? positive(options?.statement_timeout) ?? DEFAULT_DATABASE_TIMEOUTS.statement;
  if (options !== null) {
    options.connectionTimeoutMillis = Math.min(connect, acquire);
    // A pool that names statement_timeout 0 keeps it, even beside the service's own `statement` (behind PgBouncer,
    // which refuses startup parameters it does not know); the client-side bound below still holds. Another value
    // gives way to the service's.
    if (options.statement_timeout !== 0 && (given.statement !== undefined || !('statement_timeout' in options))) options.statement_timeout = statement;
    if (given.statement !== undefined || positive(options.query_timeout) === undefined) options.query_timeout = statement + CLIENT_MARGIN_MS;
  }
  return { connect, acquire, statement };
}

/** `host:port/database` of the client, never its user or password. */
export function postgresTarget(client: any): string {
  const options = optionsOf(client) ?? {};
  let parameters: { host?: string; port?: number; database?: string } = client?.connectionParameters ?? {};
  if (client?.connectionParameters === undefined) {
    // pg's own resolution of a connection string, the PG* variables and its defaults.
    const ConnectionParameters = require('pg/lib/connection-parameters') as new (options: object) => typeof parameters;
    parameters = new ConnectionParameters(options);
  }
  return targetText(parameters.host ?? 'localhost', parameters.port ?? 5432, parameters.database ?? '');
}
