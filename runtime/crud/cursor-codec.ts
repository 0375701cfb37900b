// The cursor of a page (CONTRACT §10): the last row's sort-key values and the shape of the list that issued it,
// sealed with AES-256-GCM into an opaque base64url string. The values may be those of columns the caller cannot
// read (a sortable hidden or scrubbed column), so they are encrypted, not only signed; the resource's label is
// the authenticated data, so a cursor of another resource fails like a tampered one.
import { createCipheriv, createDecipheriv, createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { TesseraError } from '../errors';
import { MAX_CURSOR_LENGTH } from '../model/cursor-length';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * The cursor keys: derived from the server's `cursorSecret`, else random per process (replicas and restarts then
 * reject each other's cursors; the server's start says so once). `iv` keys the nonce (below).
 */
interface CursorKeys {
  readonly seal: Buffer;
  readonly iv: Buffer;
}

function deriveKeys(secret: string | null): CursorKeys {
  const root = secret ?? randomBytes(32);
  return { seal: Buffer.from(hkdfSync('sha256', root, 'tessera', 'cursor', 32)), iv: Buffer.from(hkdfSync('sha256', root, 'tessera', 'cursor-iv', 32)) };
}

let keys: CursorKeys = deriveKeys(null);

/** Derives the cursor keys from a secret (`cursorSecret`), or random ones again with null. */
export function useCursorSecret(secret: string | null): void {
  keys = deriveKeys(secret);
}

/** What a cursor carries: the digest of its list's shape and the last row's sort-key values. */
export interface CursorContent {
  readonly shape: string;
  readonly values: readonly unknown[];
}

/** JSON keeps strings, numbers, booleans and null; the other driver values travel tagged. */
function packValue(value: unknown): unknown {
  if (value instanceof Date) return { d: value.toISOString() };
  if (typeof value === 'bigint') return { n: value.toString() };
  if (value instanceof Uint8Array) return { b: Buffer.from(value).toString('base64') };
  if (typeof value === 'object' && value !== null) return { j: value };
  return value;
}

function unpackValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  const tagged = value as { d?: string; n?: string; b?: string; j?: unknown };
  if (tagged.d !== undefined) return new Date(tagged.d);
  if (tagged.n !== undefined) return BigInt(tagged.n);
  if (tagged.b !== undefined) return Buffer.from(tagged.b, 'base64');
  return tagged.j;
}

/** Seals a cursor for the resource labelled `label`. */
export function encodeCursor(label: string, content: CursorContent): string {
  const plain = JSON.stringify([content.shape, content.values.map(packValue)]);
  // A synthetic nonce (as AES-GCM-SIV derives one): keyed by what is sealed, so one row's cursor is the same text in
  // every handler mode and on every replica, and two different cursors never share a nonce.
  const iv = createHmac('sha256', keys.iv).update(label).update('\0').update(plain).digest().subarray(0, IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.seal, iv);
  cipher.setAAD(Buffer.from(label));
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const cursor = Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64url');
  if (cursor.length > MAX_CURSOR_LENGTH) {
    throw cursorError(`the sort values of this page's last row are too long for a cursor (at most ${MAX_CURSOR_LENGTH} characters): order by shorter columns`);
  }
  return cursor;
}

export const cursorError = (message: string) => new TesseraError('VALIDATION_ERROR', message, [{ path: '/cursor', message }]);

const NOT_OURS =
  'cursor is not valid for this resource: it was altered, issued for another resource, or issued under another cursorSecret (another replica or an earlier process)';

/** Opens a cursor sealed for `label`; anything else (altered, another resource, another key) is a VALIDATION_ERROR. */
export function decodeCursor(label: string, cursor: string): CursorContent {
  const bytes = Buffer.from(cursor, 'base64url');
  if (bytes.length < IV_BYTES + TAG_BYTES + 1 || bytes.toString('base64url') !== cursor) throw cursorError(NOT_OURS);
  let plain: string;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keys.seal, bytes.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(label));
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    plain = Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw cursorError(NOT_OURS); // the authentication failed: no detail of why
  }
  const [shape, values] = JSON.parse(plain) as [string, unknown[]];
  return { shape, values: values.map(unpackValue) };
}

/** Object keys in a fixed order, so that `{a, b}` and `{b, a}` are one where. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value !== 'object' || value === null) return JSON.stringify(value);
  const keys = Object.keys(value).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`).join(',')}}`;
}

/** The digest of a list's shape: its ordering (fields and directions) and its where, values included. */
export function shapeDigest(orderKey: string, where: unknown): string {
  return createHash('sha256').update(orderKey).update('\0').update(where === undefined ? '' : canonicalJson(where)).digest('base64url').slice(0, 22);
}
