// The databases behind the served services, for the dashboard's database part: each one's statement
// cache (statementCacheStats, spec §8) and its health, checked with the query `/_health` runs.
import type { Service } from '../service';
import { checkDatabase } from '../server/health';
import { statementCacheStats } from '../sql/statement-cache';
import type { DatabaseHealth, DatabaseSample } from './telemetry-report';

export interface ServedDatabase {
  /** The names of the services on this database, sorted, joined with `,`. */
  readonly name: string;
  readonly dialect: string;
  /** A service on it: the health check runs through its dialect. */
  readonly service: Service;
}

/** One entry per distinct database object (several services may share one), in name order. */
export function servedDatabases(services: readonly Service[]): ServedDatabase[] {
  const byDb = new Map<object, Service[]>();
  for (const service of services) {
    const sharing = byDb.get(service.db as object);
    if (sharing === undefined) byDb.set(service.db as object, [service]);
    else sharing.push(service);
  }
  const databases = [...byDb.values()].map((sharing) => ({
    name: sharing.map((service) => service.name).sort().join(','),
    dialect: sharing[0].dialect.name,
    service: sharing[0],
  }));
  return databases.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function databaseSamples(databases: readonly ServedDatabase[]): DatabaseSample[] {
  return databases.map(({ name, dialect, service }) => ({ name, dialect, statementCache: statementCacheStats(service.db as object) }));
}

/** Runs the health query on every database at once; each answers within 1 s or is reported as not answering. */
export async function checkDatabases(databases: readonly ServedDatabase[]): Promise<DatabaseHealth[]> {
  const results = await Promise.all(databases.map(({ service }) => checkDatabase(service)));
  const checkedAt = Date.now();
  return databases.map(({ name, dialect }, index) => ({ name, dialect, status: results[index], checkedAt }));
}
