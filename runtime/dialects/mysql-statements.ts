// The statement cache's statements on MySQL / MariaDB (spec §8 rule 1, issue 27): prepared by the server once per
// pooled connection and run on mysql2's binary protocol (`execute`), as the bench's ceiling runs its own. Sent as
// text (`query`), the server parsed and planned each call again (docs/performance.md, On MariaDB). What a call with
// a scope condition prepares for itself (rule 2) stays on the text protocol: the server keeps nothing for it.
import type { RawStatement } from './dialect';
import { callbackClientOf, untraced } from './mysql-client';
import { textQuery } from './mysql-text-dates';

/** mysql2's type codes of the columns whose binary value is not the text value: FLOAT (a float32, unrounded) and TIME (its fraction unpadded). */
const TEXT_ONLY_TYPES: ReadonlySet<number> = new Set([0x04, 0x0b]);

/**
 * The refusals after which a statement runs as text, for good: ER_MAX_PREPARED_STMT_COUNT_REACHED (the server holds
 * as many prepared statements as it allows; every replica and worker counts) and ER_WRONG_ARGUMENTS (MySQL 8.0.22
 * and later refuse a number bound as DOUBLE where the statement wants an integer, `LIMIT ?`: mysql2 before 3.24
 * binds every number so). Either refuses before anything runs.
 */
const TEXT_FALLBACK_ERRNOS: ReadonlySet<unknown> = new Set([1461, 1210]);

type Done<T> = (error: unknown, result: T) => void;

/** mysql2's callback connection, as far as preparing on it goes. */
interface PreparingConnection {
  prepare(options: object, done: Done<{ columns?: readonly { columnType: number }[] }>): unknown;
  unprepare(options: object): unknown;
  execute(options: object, values: readonly unknown[], done: Done<unknown>): unknown;
  query(options: object, values: readonly unknown[], done: Done<unknown>): unknown;
}

interface PreparingPool {
  getConnection(done: Done<PreparingConnection & { release(): void }>): void;
  /** mysql2's list of the pool's open connections (a Denque). */
  _allConnections?: { toArray(): PreparingConnection[] };
}

const isPool = (core: object): core is PreparingPool => typeof (core as PreparingPool).getConnection === 'function';

function call<T>(run: (done: Done<T>) => unknown): Promise<T> {
  return new Promise((resolve, reject) => {
    run((error, result) => (error ? reject(error) : resolve(result)));
  });
}

/**
 * One cached statement: at its first call it is prepared on a connection, and the columns the server describes
 * decide how it runs. Columns whose binary values differ from their text (TEXT_ONLY_TYPES), or a client whose own
 * typeCast reads dates from the text, keep it on the text protocol, so every handler mode answers the same values.
 */
class ServerPrepared implements RawStatement {
  #binary: boolean | undefined;
  /** Whether some connection may hold it (it ran on the binary protocol once). */
  #prepared = false;

  constructor(
    private readonly core: PreparingConnection | PreparingPool,
    private readonly options: ReturnType<typeof textQuery>,
    private readonly texts: ReturnType<typeof untraced>,
  ) {
    // A client with a typeCast function of its own reads dates as text through it: the binary protocol has none.
    if (!('dateStrings' in options)) this.#binary = false;
  }

  async rows(values: readonly unknown[]): Promise<unknown[][]> {
    return (await this.#answer(values)) as unknown[][];
  }

  async run(values: readonly unknown[]): Promise<number> {
    return ((await this.#answer(values)) as { affectedRows: number }).affectedRows;
  }

  /** Drops the statement from every connection that prepared it (the statement cache evicted it). */
  release(): void {
    if (!this.#prepared) return;
    const connections = isPool(this.core) ? (this.core._allConnections?.toArray() ?? []) : [this.core];
    for (const connection of connections) connection.unprepare(this.options);
  }

  #answer(values: readonly unknown[]): Promise<unknown> {
    if (this.#binary === false) return this.#asText(values);
    if (this.#binary === undefined) return (isPool(this.core) ? this.#first(values) : this.#firstOn(this.core, values)).catch((error) => this.#refused(error, values));
    return new Promise((resolve, reject) => {
      (this.core as PreparingConnection).execute(this.options, values, (error, answer) => (error ? this.#refused(error, values).then(resolve, reject) : resolve(answer)));
    });
  }

  /** A refusal in TEXT_FALLBACK_ERRNOS turns the statement to text, this call included; any other error stands. */
  #refused(error: unknown, values: readonly unknown[]): Promise<unknown> {
    if (!TEXT_FALLBACK_ERRNOS.has((error as { errno?: unknown }).errno)) return Promise.reject(error);
    this.#binary = false;
    return this.#asText(values);
  }

  #asText(values: readonly unknown[]): Promise<unknown> {
    return this.texts.query(this.options, values).then(([answer]) => answer);
  }

  async #first(values: readonly unknown[]): Promise<unknown> {
    const connection = await call((done: Done<PreparingConnection & { release(): void }>) => (this.core as PreparingPool).getConnection(done));
    try {
      return await this.#firstOn(connection, values);
    } finally {
      connection.release();
    }
  }

  async #firstOn(connection: PreparingConnection, values: readonly unknown[]): Promise<unknown> {
    const prepared = await call((done: Done<{ columns?: readonly { columnType: number }[] }>) => connection.prepare(this.options, done));
    this.#binary ??= !(prepared.columns ?? []).some((column) => TEXT_ONLY_TYPES.has(column.columnType));
    this.#prepared ||= this.#binary;
    if (this.#binary) return call((done) => connection.execute(this.options, values, done));
    connection.unprepare(this.options);
    return call((done) => connection.query(this.options, values, done));
  }
}

/** The cached statement of `text` on a mysql2 pool or connection (a drizzle database's `$client`). */
export function serverPrepared(client: unknown, text: string): RawStatement {
  const core = callbackClientOf(client);
  const texts = untraced(client);
  const options = textQuery(text, texts);
  if (core === null) {
    // A client of another shape: its own `query`, as before.
    return {
      rows: async (values) => (await texts.query(options, values))[0] as unknown[][],
      run: async (values) => ((await texts.query(options, values))[0] as { affectedRows: number }).affectedRows,
    };
  }
  return new ServerPrepared(core as unknown as PreparingConnection | PreparingPool, options, texts);
}
