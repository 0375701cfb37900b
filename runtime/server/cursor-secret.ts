// `cursorSecret` (CONTRACT §10): the key behind the list cursors and the rows' ETags, so that replicas behind one address (and a restarted
// process) answer the same ETag for the same row and accept each other's If-Match. Without it each process draws a
// random key: an ETag read from one replica fails If-Match on another (412), and a cursor VALIDATION_ERROR.
import { useCursorSecret } from '../crud/cursor-codec';
import { takeClusterKey } from './cluster-key';
import { useEtagSecret } from '../crud/response-meta';
import { SetupError } from '../errors';
import { Secret } from '../secrets/secret';
import type { SecretSource } from '../secrets/secret-source';

/** 32 characters: 128 bits and more of a hex or base64 key (`openssl rand -hex 32` gives 64). */
export const MIN_CURSOR_SECRET_LENGTH = 32;

/**
 * Checks the option and keys the cursors and ETags with it; left out, with the key the cluster's primary drew for
 * its workers, or else a random key per process.
 */
export function applyCursorSecret(value: unknown, source: SecretSource | undefined): void {
  if (value === undefined) {
    const clusterKey = takeClusterKey();
    if (clusterKey !== undefined) useKey(clusterKey);
    return;
  }
  const text = value instanceof Secret ? value.require(source) : value;
  if (typeof text !== 'string') throw new SetupError("cursorSecret must be a string or a secret('…') reference");
  if (text.length < MIN_CURSOR_SECRET_LENGTH) throw new SetupError(`cursorSecret must be at least ${MIN_CURSOR_SECRET_LENGTH} characters (openssl rand -hex 32)`);
  useKey(text);
}

function useKey(text: string): void {
  useEtagSecret(text);
  useCursorSecret(text);
}
