// This process's part in `--workers`, found without loading node:cluster where it plays none: node:cluster brings
// child_process and its IPC, about 8 ms of a bundle's start, and a process serving alone never needs it. Node
// starts every cluster worker with NODE_UNIQUE_ID in its environment; node:cluster picks its own role from it.

/** True in a node:cluster worker. */
export function isClusterWorker(): boolean {
  return process.env.NODE_UNIQUE_ID !== undefined && (require('node:cluster') as { isWorker: boolean }).isWorker;
}

/**
 * With workers asked for (`workers` not null) in a process that is not one of them: runs the cluster's primary (it
 * forks the workers, which load the entry again) and answers true. Otherwise answers false: this process serves.
 */
export async function runAsPrimary(workers: number | null, port: number, host: string | undefined, options: Record<string, unknown>): Promise<boolean> {
  if (workers === null || isClusterWorker()) return false;
  const { runPrimary } = require('./primary') as typeof import('./primary');
  const { primaryServices } = require('./primary-dashboard') as typeof import('./primary-dashboard');
  await runPrimary({ workers, port, host, services: primaryServices(options) });
  return true;
}
