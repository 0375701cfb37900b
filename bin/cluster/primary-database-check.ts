// The start-up database check of `--workers`, run once in the primary before it takes the port or forks a worker
// (issue 32): a database it cannot reach, or a missing table, stops the start with one line and exit code 1, as in
// a single process, instead of workers dying and being replaced every second while the port accepts and drops
// connections. The primary then closes the clients it opened: the workers serve with their own.
import type { Service } from '../../runtime';

/** Closing the primary's clients waits this long at most (a database that hangs right after the check). */
const CLOSE_WITHIN_MS = 2_000;

export async function checkDatabasesOnce(options: Record<string, unknown>): Promise<void> {
  const { checkDatabaseSchema, listServices } = require('../../runtime') as typeof import('../../runtime');
  const { closeDatabases } = require('../../runtime/server/close-databases') as typeof import('../../runtime/server/close-databases');
  const services = (options.services as Service[] | undefined) ?? listServices();
  try {
    await checkDatabaseSchema(services);
  } finally {
    await closeDatabases(services, Date.now() + CLOSE_WITHIN_MS, null);
  }
}
