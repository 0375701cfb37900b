// The `--workers` / TESSERA_WORKERS rule, as pure functions (like port.ts): how many processes serve the
// port through node:cluster. Nothing here reads process.env or exits; the commands decide.
import os from 'node:os';

/** More than this is a typo, not a machine. */
const MAX_WORKERS = 1024;
const DECIMAL_DIGITS = /^[0-9]+$/;

export class WorkersError extends Error {
  override name = 'WorkersError';
}

/**
 * `--workers`, then TESSERA_WORKERS: a whole number from 1, or `auto` (the cores Node may use,
 * os.availableParallelism()). Null when neither is given: one process, no cluster.
 */
export function resolveWorkers({ flag, env }: { flag?: string; env?: string }): number | null {
  if (flag !== undefined) return parseWorkers(flag, '--workers');
  if (env !== undefined && env !== '') return parseWorkers(env, 'TESSERA_WORKERS');
  return null;
}

export function parseWorkers(value: string, source: string): number {
  if (value === 'auto') return os.availableParallelism();
  const count = DECIMAL_DIGITS.test(value) ? Number(value) : Number.NaN;
  if (!(count >= 1 && count <= MAX_WORKERS)) {
    throw new WorkersError(`invalid ${source} ${JSON.stringify(value)}: expected "auto" or a whole number from 1 to ${MAX_WORKERS}`);
  }
  return count;
}
