// Closing the services' database clients within a deadline (issue 32): a hung database never answers a pool's
// end(), which would hold a stopping process forever. Used by app.close() and by the cluster primary after its
// start-up check.
import { databasesOf } from '../dialects/read-replicas';
import type { Service } from '../service';

/**
 * Closes each distinct database client once (a withReplicas database's primary and each replica), all together,
 * until `deadline` (a Date.now() time); answers the services whose clients were given up on. A failure is logged (no values) and does not stop the others.
 */
export async function closeDatabases(services: readonly Service[], deadline: number, errorLog: ((message: string) => void) | null): Promise<string[]> {
  const seen = new Set<unknown>();
  const pending = new Set<string>();
  const closing: Promise<void>[] = [];
  for (const service of services) {
    const clients = databasesOf(service.db).filter((db) => !seen.has(db));
    if (clients.length === 0) continue;
    for (const db of clients) seen.add(db);
    pending.add(service.name);
    closing.push(
      (async () => {
        for (const db of clients) {
          try {
            await service.dialect.close(db);
          } catch (error) {
            const code = (error as { code?: unknown })?.code;
            errorLog?.(`closing the database of ${service.name} failed: ${(error as Error)?.name ?? 'Error'}${code === undefined ? '' : ` (${String(code)})`}`);
          }
        }
        pending.delete(service.name);
      })(),
    );
  }
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))));
  try {
    await Promise.race([Promise.all(closing), late]);
  } finally {
    clearTimeout(timer);
  }
  return [...pending];
}
