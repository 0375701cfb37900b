// The key a `--workers` primary draws for its workers (bin/cluster/primary.ts), so that one server's workers answer
// the same ETags and accept each other's cursors without a cursorSecret (runtime/server/cursor-secret.ts). Kept
// apart from the runtime's other modules: the primary loads this file alone.

/** The environment variable through which the primary hands the key to each worker it forks. */
export const CLUSTER_KEY_VARIABLE = 'TESSERA_CLUSTER_KEY';

let taken: { key: string | undefined } | null = null;

/** The key this worker was given, read once and removed from the environment (the application's own child processes never see it). */
export function takeClusterKey(): string | undefined {
  if (taken === null) {
    taken = { key: process.env[CLUSTER_KEY_VARIABLE] };
    delete process.env[CLUSTER_KEY_VARIABLE];
  }
  return taken.key;
}
