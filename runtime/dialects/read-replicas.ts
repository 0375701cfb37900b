// Drizzle's read replicas (`withReplicas` of drizzle-orm/pg-core and mysql-core) as a service's db: the object it
// returns is the primary with `select` sent to a replica. Tessera's own statements keep that rule in every handler
// mode: reads on the replica withReplicas picks per call, writes (and a write's read-back) on the primary.
import type { AnyDatabase, Dialect, PreparableQuery, PreparedQuery, RawStatement } from './dialect';

/** What withReplicas adds to the primary's properties. */
interface ReplicatedDatabase {
  /** withReplicas' own select, on the replica it picks. */
  select(): { readonly session: unknown };
  readonly $primary: AnyDatabase;
  readonly $replicas: readonly AnyDatabase[];
}

export function isReplicated(db: unknown): db is ReplicatedDatabase {
  const candidate = db as Partial<ReplicatedDatabase> | null;
  return typeof candidate === 'object' && candidate !== null && typeof candidate.$primary === 'object' && Array.isArray(candidate.$replicas) && candidate.$replicas.length > 0;
}

/** The primary of a withReplicas database, or the database itself. */
export function primaryOf(db: AnyDatabase): AnyDatabase {
  return isReplicated(db) ? db.$primary : db;
}

/** Every database client behind `db`, the primary first: what the health route pings and a shutdown closes. */
export function databasesOf(db: AnyDatabase): readonly AnyDatabase[] {
  return isReplicated(db) ? [db.$primary, ...db.$replicas] : [db];
}

/**
 * The replica withReplicas picks for this call: its own choice (its `getReplica`, random by default), read from the
 * session of the select builder it hands out. A builder costs one small object; only replicated databases pay it.
 */
function pickedReplica(db: ReplicatedDatabase): number {
  const session = db.select().session;
  const index = db.$replicas.findIndex((replica) => replica.session === session);
  return index === -1 ? 0 : index;
}

/** The database a read runs on: the replica withReplicas picks for this call, or the database itself. */
export function readDatabase(db: AnyDatabase): AnyDatabase {
  return isReplicated(db) ? db.$replicas[pickedReplica(db)] : db;
}

/**
 * A cached read on the replica picked per call. withReplicas picks a replica when a query is built, so a statement
 * prepared once would stay on that replica: the query is prepared on each (its builder's session swapped), and each
 * call runs the picked replica's. One replica, or none, needs nothing of this.
 */
export function prepareRead(db: AnyDatabase, query: PreparableQuery, prepare: (query: PreparableQuery) => PreparedQuery): PreparedQuery {
  if (!isReplicated(db) || db.$replicas.length === 1) return prepare(query);
  const statements = db.$replicas.map((replica) => prepare(Object.create(query, { session: { value: replica.session } })));
  return { execute: (values) => statements[pickedReplica(db)].execute(values), release: () => statements.forEach((statement) => statement.release?.()) };
}

/** A read the compiled handlers run without Drizzle (a fixed shape's SQL), on the replica picked per call. */
export function rawReadStatement(dialect: Dialect, db: AnyDatabase, text: string, name: string): RawStatement {
  if (!isReplicated(db)) return dialect.rawStatement(db, text, name);
  const statements = db.$replicas.map((replica) => dialect.rawStatement(replica, text, name));
  if (statements.length === 1) return statements[0];
  return {
    rows: (values) => statements[pickedReplica(db)].rows(values),
    run: (values) => statements[pickedReplica(db)].run(values),
    release: () => statements.forEach((statement) => statement.release?.()),
  };
}
