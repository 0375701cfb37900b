// The database schema check the CLI and a bundle run before listening: every resource's table and columns exist
// in its database (one catalog query per table), so a missing migration is one setup error naming what to run,
// instead of a 500 on every request while the health route says ok. A database it cannot reach is one line naming
// it (database-unreachable.ts), bounded by the service's timeouts.
import { getTableColumns, getTableName, type Table } from 'drizzle-orm';
import { SetupError } from '../errors';
import { describeUnreachable, unreachableReason } from './database-unreachable';
import { listServices } from '../registry';
import type { Service } from '../service';
import { primaryOf } from '../dialects/read-replicas';

const REMEDY = 'create them with drizzle-kit (npx drizzle-kit push, or drizzle-kit generate then migrate)';

/** The database of a service could not be reached (down, wrong host or port, no such database, refused credentials). */
export class DatabaseUnreachable extends Error {
  override name = 'DatabaseUnreachable';
}

/** What is missing for one resource: its table, or some of its columns; null when all is there. */
async function missingFor(service: Service, resource: Service['resources'][number]): Promise<string | null> {
  const existing = await service.dialect.listColumns(service.db, resource.table);
  const table = getTableName(resource.table);
  if (existing === null) return `${resource.label}: table "${table}" does not exist`;
  const present = new Set(existing);
  const missing = Object.values(getTableColumns(resource.table as Table)).map((column) => column.name).filter((name) => !present.has(name));
  if (missing.length === 0) return null;
  return `${resource.label}: table "${table}" has no column ${missing.map((name) => `"${name}"`).join(', ')}`;
}

/**
 * Checks that the database of each service holds the tables and columns its resources declare; throws one
 * SetupError naming everything missing. `tessera start`, `dev` and a bundle run it before they listen.
 *
 * @example
 * const app = createServer();
 * await checkDatabaseSchema(); // SetupError: blog.notes: table "notes" does not exist: create them with drizzle-kit …
 * app.listen(4000);
 */
export async function checkDatabaseSchema(services: readonly Service[] = listServices()): Promise<void> {
  const problems: string[] = [];
  for (const service of services) {
    for (const resource of service.resources) {
      let problem: string | null;
      try {
        problem = await missingFor(service, resource);
      } catch (error) {
        const reason = unreachableReason(error, service.timeouts);
        if (reason === null) throw error;
        throw new DatabaseUnreachable(describeUnreachable(service, reason), { cause: error });
      }
      if (problem !== null) problems.push(problem);
    }
    // What the dialect learns of the server once, at start (MariaDB's version: INSERT … RETURNING from 10.5).
    if (service.resources.length > 0) await service.dialect.learnServer(primaryOf(service.db));
  }
  if (problems.length > 0) throw new SetupError(`${problems.join('; ')}: ${REMEDY}`);
}
