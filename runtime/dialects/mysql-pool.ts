// The mysql2 client behind a drizzle database: its timeouts (database-timeouts.ts) and where it connects, for
// start-up messages. mysql2 bounds only the opening of a connection by itself (connectTimeout); the wait for a free
// pooled connection and each statement are bounded here, on the callback client that every call goes through.
import { targetText } from './target-text';
import type { DatabaseTimeouts, EffectiveTimeouts } from './database-timeouts';
import { DEFAULT_DATABASE_TIMEOUTS, timeoutError } from './database-timeouts';

/** mysql2's own connectTimeout when none is given: replaced by Tessera's default. */
const MYSQL2_DEFAULT_CONNECT_MS = 10_000;
/** The code of the error a pool answers when no connection became free in time (mysql.ts answers it 503). */
export const ACQUIRE_TIMEOUT_CODE = 'TESSERA_ACQUIRE_TIMEOUT';
/** mysql2's code for a statement that got no answer within its `timeout`. */
const STATEMENT_TIMEOUT_CODE = 'PROTOCOL_SEQUENCE_TIMEOUT';

/** A mysql2 callback connection, as far as this file touches it. */
interface CoreConnection {
  addCommand(command: unknown): unknown;
  destroy(): void;
  query(sql: string, values: unknown[], done: (error: unknown) => void): unknown;
  /** Set by mysql2 from the server's handshake. */
  _isMariaDB?: boolean;
  /** mysql2's statements prepared on this connection, by key. */
  _statements?: { get(key: string): unknown };
  config: { connectTimeout?: number; host?: string; port?: number; database?: string };
}

/** mysql2's Prepare command. */
interface PrepareCommand {
  readonly options: object;
  onResult?: ((error: unknown) => void) | null;
  once(event: 'end', listener: () => void): void;
}

/** A mysql2 callback pool. */
interface CorePool {
  config: { connectionConfig: CoreConnection['config']; connectionLimit: number };
  getConnection(done: (error: unknown, connection?: CoreConnection & { release(): void }) => void): void;
  on(event: 'connection', listener: (connection: CoreConnection) => void): void;
  _freeConnections: { length: number };
  _allConnections: { length: number; get(index: number): CoreConnection };
}

/** The callback client behind a promise or callback pool or connection. */
function coreOf(client: any): any {
  return typeof client?.promise === 'function' ? client : (client?.pool ?? client?.connection ?? client);
}

const isPool = (core: any): core is CorePool => typeof core?.getConnection === 'function' && typeof core?.config?.connectionConfig === 'object';
const timedConnections = new WeakSet<object>();
const timedPools = new WeakSet<object>();

/**
 * Every statement of the connection gets `timeout` (mysql2's bound on its answer) unless it names one; a statement
 * that timed out leaves the connection waiting for an answer that may never come, so the connection is destroyed
 * (a pool then opens another, bounded by connectTimeout).
 */
function boundStatements(connection: CoreConnection, statement: number): void {
  if (timedConnections.has(connection)) return;
  timedConnections.add(connection);
  const addCommand = connection.addCommand;
  connection.addCommand = function addTimedCommand(this: CoreConnection, command: any) {
    // Query and Execute commands carry `timeout` (undefined when not given); a Prepare gets a bound of its own
    // (mysql-statements.ts prepares the statement cache's statements); others (ping) are left alone.
    if (command?.constructor?.name === 'Prepare') boundPrepare(connection, command, statement);
    else if (command !== null && typeof command === 'object' && 'timeout' in command && command.timeout === undefined) {
      command.timeout = statement;
      const onTimeout = command._handleTimeoutError;
      if (typeof onTimeout === 'function') {
        command._handleTimeoutError = function handleTimeout(this: unknown) {
          onTimeout.call(this);
          connection.destroy();
        };
      }
    }
    return addCommand.call(this, command);
  };
}

/**
 * mysql2 bounds no Prepare: past `statement` ms the connection is destroyed and the prepare answers the timeout's
 * error (a destroyed connection calls back none of its commands).
 */
function boundPrepare(connection: CoreConnection, command: PrepareCommand, statement: number): void {
  // A statement this connection holds answers at once, without the server: no timer per call.
  const statementKey = (connection.constructor as { statementKey?(options: object): string }).statementKey;
  if (statementKey !== undefined && connection._statements?.get(statementKey(command.options)) !== undefined) return;
  const timer = setTimeout(() => {
    const done = command.onResult;
    command.onResult = null;
    connection.destroy();
    done?.(timeoutError(`no answer to a prepare within ${statement} ms`, STATEMENT_TIMEOUT_CODE));
  }, statement);
  command.once('end', () => clearTimeout(timer));
}

/**
 * The server's own bound on a statement, on a new connection: a statement the client gave up on would otherwise run
 * on (a MariaDB optimizer faced with many long IN lists ran for a quarter of an hour). MariaDB's max_statement_time
 * (seconds) bounds every statement, MySQL's max_execution_time (milliseconds) its SELECTs. A server that refuses
 * (an old version) keeps the client's bound alone.
 */
function boundOnServer(connection: CoreConnection, statement: number): void {
  const setting = connection._isMariaDB === true ? ['max_statement_time', statement / 1000] : ['max_execution_time', statement];
  connection.query(`SET SESSION ${setting[0]} = ?`, [setting[1]], () => undefined);
}

/** The pool's getConnection, bounded when it has to wait for a busy connection (opening one is connectTimeout's). */
function boundAcquire(pool: CorePool, acquire: number): void {
  const getConnection = pool.getConnection;
  pool.getConnection = function getConnectionInTime(this: CorePool, done) {
    // Fast path: a free connection, or room for a new one, needs no timer.
    if (pool._freeConnections.length > 0 || pool.config.connectionLimit === 0 || pool._allConnections.length < pool.config.connectionLimit) {
      return getConnection.call(this, done);
    }
    let isSettled = false;
    const timer = setTimeout(() => {
      isSettled = true;
      done(timeoutError(`no free database connection within ${acquire} ms`, ACQUIRE_TIMEOUT_CODE));
    }, acquire);
    getConnection.call(this, (error, connection) => {
      if (isSettled) return void connection?.release(); // given up on: back to the pool
      isSettled = true;
      clearTimeout(timer);
      done(error, connection);
    });
  };
}

/**
 * Sets connectTimeout (when the application left mysql2's default), bounds the wait for a pooled connection and
 * each statement. `timeouts` given to the service win over the client's own connectTimeout.
 */
export function applyMysqlTimeouts(client: any, given: DatabaseTimeouts): EffectiveTimeouts {
  const core = coreOf(client);
  const config: CoreConnection['config'] | undefined = isPool(core) ? core.config.connectionConfig : core?.config;
  const own = config?.connectTimeout;
  const connect = given.connect ?? (typeof own === 'number' && own !== MYSQL2_DEFAULT_CONNECT_MS ? own : DEFAULT_DATABASE_TIMEOUTS.connect);
  const effective = { connect, acquire: given.acquire ?? DEFAULT_DATABASE_TIMEOUTS.acquire, statement: given.statement ?? DEFAULT_DATABASE_TIMEOUTS.statement };
  if (config !== undefined) config.connectTimeout = connect;
  if (isPool(core)) {
    if (!timedPools.has(core)) {
      timedPools.add(core);
      boundAcquire(core, effective.acquire);
      for (let index = 0; index < core._allConnections.length; index++) boundStatements(core._allConnections.get(index), effective.statement);
      core.on('connection', (connection) => {
        boundStatements(connection, effective.statement);
        boundOnServer(connection, effective.statement);
      });
    }
  } else if (typeof core?.addCommand === 'function') {
    boundStatements(core, effective.statement);
  }
  return effective;
}

/** `host:port/database` of the client, never its user or password. */
export function mysqlTarget(client: any): string {
  const core = coreOf(client);
  const config: CoreConnection['config'] = (isPool(core) ? core.config.connectionConfig : core?.config) ?? {};
  return targetText(config.host ?? 'localhost', config.port ?? 3306, config.database ?? '');
}
