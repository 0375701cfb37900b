// A cluster's database health, as the primary answers it (CONTRACT §8): each worker runs the health query, and a
// database is as healthy as its worst worker says; a worker that does not answer in time makes it so too.
import { HEALTH_TIMEOUT_MS } from '../server/health';
import type { DatabaseHealth } from './telemetry-report';

/** How long the primary waits for the workers' health answers: their checks time out after 1 s. */
export const PROBE_TIMEOUT_MS = HEALTH_TIMEOUT_MS + 500;

/** Per database, the first failing answer of any worker, else ok; workers that did not answer make it so. */
export function mergeHealth(answers: readonly DatabaseHealth[][], silentWorkers: number): DatabaseHealth[] {
  const byName = new Map<string, DatabaseHealth>();
  for (const databases of answers) {
    for (const database of databases) {
      const known = byName.get(database.name);
      if (known === undefined || (known.status === 'ok' && database.status !== 'ok')) byName.set(database.name, database);
    }
  }
  const merged = [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  if (silentWorkers === 0) return merged;
  const note = `${silentWorkers} worker(s) did not answer within ${PROBE_TIMEOUT_MS} ms`;
  return merged.map((database) => (database.status === 'ok' ? { ...database, status: note } : database));
}
