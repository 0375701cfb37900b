// What an HTTP answer carries beside its body when it depends on what the call did (CONTRACT §10): upsert's 201
// for a created row (200 for an updated one), and the ETag of a row answered whole (get, create, update, upsert).
// The in-process caller gets the value alone; both handler modes read these here, so they answer the same.
import { hash, hkdfSync, randomBytes } from 'node:crypto';
import type { DbRow } from '../dialects/dialect';
import type { CrudRuntime } from '../model/crud-runtime';
import { encodeRow } from '../model/row-serializer';

interface ResponseMeta {
  status?: number;
  etag?: string;
}

const metas = new WeakMap<object, ResponseMeta>();

function metaOf(output: object): ResponseMeta {
  let meta = metas.get(output);
  if (meta === undefined) metas.set(output, (meta = {}));
  return meta;
}

/** Marks an action's output with the status its HTTP answer carries instead of the route's. */
export function withStatus<T extends object>(output: T, status: number): T {
  metaOf(output).status = status;
  return output;
}

/** Marks a row answered whole with its ETag. */
export function withEtag<T extends object>(output: T, etag: string): T {
  metaOf(output).etag = etag;
  return output;
}

/** The status of an answer: the one its action set, else the route's. */
export function statusOf(output: unknown, routeStatus: number): number {
  return typeof output === 'object' && output !== null ? (metas.get(output)?.status ?? routeStatus) : routeStatus;
}

/** The ETag of an answer, or undefined. */
export function etagOf(output: unknown): string | undefined {
  return typeof output === 'object' && output !== null ? metas.get(output)?.etag : undefined;
}

/**
 * The key of the ETags: a row's ETag is a keyed digest of its stored readable values (and of the answer's body where
 * it differs, answerEtag), so that a scrubbed value cannot be guessed by comparing digests: SHA-256 over the key and
 * then the JSON text. A secret prefix is a pseudorandom function on inputs none of which is a prefix of another (the
 * cascade construction), and a JSON object's text never is (nor, padded, can a known digest be extended into one); it costs one one-shot hash where
 * an HMAC costs a key import, two hashes and their objects (issue 27: a tenth of a get's server time was the HMAC).
 * Random per process unless the server's `cursorSecret` sets it (replicas share it then, and an ETag read from one
 * is good on another).
 */
let etagKey: string = keyText(randomBytes(32));

/** The key as the text the digest starts with: base64url, so that its UTF-8 bytes are its characters. */
function keyText(key: Buffer): string {
  return `${key.toString('base64url')}.`;
}

/** Derives the ETag key from a secret (`cursorSecret`), or a random one again with null. */
export function useEtagSecret(secret: string | null): void {
  etagKey = keyText(secret === null ? randomBytes(32) : Buffer.from(hkdfSync('sha256', secret, 'tessera', 'etag', 32)));
}

/** The keyed digest of a text, as an ETag's opaque part (27 base64url characters: no `.`, no `"`). */
function digestOf(text: string): string {
  return hash('sha256', etagKey + text, 'base64url').slice(0, 27);
}

/** The strong ETag of a row from its JSON text as JSON.stringify writes it before any scrub (a generated row writer's text). */
export function etagOfRowText(text: string): string {
  return `"${digestOf(text)}"`;
}

/**
 * The strong ETag of a row's answer (RFC 9110: it names the representation, not the row): the stored values' digest
 * alone when the body is the stored row's text, else `"<stored digest>.<body digest>"`, so that two callers who see
 * the row differently (a scrub, an after-hook) never share an ETag, and If-None-Match never answers 304 for a body
 * the caller would not get. If-Match compares the stored part (ifMatchHolds).
 */
export function answerEtag(storedText: string, bodyText: string): string {
  return bodyText === storedText ? etagOfRowText(storedText) : `"${digestOf(storedText)}.${digestOf(bodyText)}"`;
}

/** The strong ETag of a database row: its readable fields' stored values. */
export function rowEtag(rt: CrudRuntime, row: DbRow): string {
  return etagOfRowText(JSON.stringify(encodeRow(row, rt.readable)));
}

/**
 * Marks a row answered whole with its ETag. `mayDiffer`: a scrub or an after-hook may have changed the answer since
 * its stored values were encoded, so the answer's text is compared; without them (the hot path) it cannot have.
 */
export function withRowEtag<T extends object>(rt: CrudRuntime, output: T, row: DbRow, mayDiffer: boolean): T {
  const storedText = JSON.stringify(encodeRow(row, rt.readable));
  return withEtag(output, mayDiffer ? answerEtag(storedText, JSON.stringify(output)) : etagOfRowText(storedText));
}

/** The stored part of an ETag answerEtag made (`"S.B"` → `"S"`); any other tag as it is. */
function storedPart(tag: string): string {
  const dot = tag.indexOf('.');
  return dot === -1 || !tag.endsWith('"') ? tag : `${tag.slice(0, dot)}"`;
}

/**
 * Whether an If-Match value (`"a", "b"`, or `*`) names the row's current stored ETag: any change of the stored row
 * fails it, a field the caller sees scrubbed too, and the ETag of any caller's answer of the row holds it. Weak tags
 * never match (RFC 9110 strong comparison).
 */
export function ifMatchHolds(ifMatch: string, current: string): boolean {
  return ifMatch.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || storedPart(trimmed) === current;
  });
}
