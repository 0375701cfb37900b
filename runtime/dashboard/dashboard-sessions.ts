// The sign-in form's sessions (CONTRACT §8): a cookie `<id>.<issued>.<mac>` whose MAC, keyed by the session key,
// binds a random session id and its issue time to the token that signed in (a digest of it, never the token), so
// it proves which token signed in without holding it and dies with that token. Sign-out revokes the id in this
// process. The key is `dashboard.auth.sessionSecret` (replicas sharing it accept each other's cookies) or a random
// key of this process (sessions end with it).
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** A session lasts 12 hours; then the form asks for the token again. */
export const SESSION_SECONDS = 12 * 60 * 60;
/** A cookie issued a little "in the future" by a clock that was ahead (another replica's) is still accepted. */
const CLOCK_SKEW_SECONDS = 60;
const COOKIE_VALUE = /^([A-Za-z0-9_-]{22})\.([0-9]{1,12})\.([A-Za-z0-9_-]{43})$/;

export interface VerifiedSession {
  readonly id: string;
  /** When the session ends by itself (seconds since the epoch). */
  readonly expiresAt: number;
}

function tokenDigest(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

export class DashboardSessions {
  /** The session key now: the sessionSecret's value (read at each call: it may rotate) or this process's random key. */
  readonly #key: () => Buffer;
  /** Signed-out session ids until they would have expired anyway. */
  readonly #revoked = new Map<string, number>();

  constructor(key: (() => string) | null) {
    if (key === null) {
      const random = randomBytes(32);
      this.#key = () => random;
    } else {
      this.#key = () => Buffer.from(key(), 'utf8');
    }
  }

  #mac(id: string, issuedAt: number, token: string): Buffer {
    return createHmac('sha256', this.#key()).update(`tessera-dashboard-session:${id}:${issuedAt}:${tokenDigest(token)}`).digest();
  }

  /** A new session's cookie value for `token`. */
  issue(token: string, now: number): string {
    const id = randomBytes(16).toString('base64url');
    const issuedAt = Math.floor(now / 1000);
    return `${id}.${issuedAt}.${this.#mac(id, issuedAt, token).toString('base64url')}`;
  }

  /** The session of a cookie value signed for one of `tokens`, live and not signed out; null otherwise. Every token is compared. */
  verify(value: string, tokens: readonly string[], now: number): VerifiedSession | null {
    const match = COOKIE_VALUE.exec(value);
    if (match === null) return null;
    const [, id, issued, mac] = match;
    const issuedAt = Number(issued);
    const age = Math.floor(now / 1000) - issuedAt;
    if (age > SESSION_SECONDS || age < -CLOCK_SKEW_SECONDS) return null;
    const presented = Buffer.from(mac, 'base64url');
    let isSigned = false;
    for (const token of tokens) {
      const expected = this.#mac(id, issuedAt, token);
      if (expected.length === presented.length && timingSafeEqual(expected, presented)) isSigned = true;
    }
    if (!isSigned || this.#revoked.has(id)) return null;
    return { id, expiresAt: issuedAt + SESSION_SECONDS };
  }

  /** Sign-out: the session stops working here at once. Entries leave the list once their session would have expired. */
  revoke(session: VerifiedSession, now: number): void {
    const seconds = Math.floor(now / 1000);
    for (const [id, expiresAt] of this.#revoked) if (expiresAt < seconds) this.#revoked.delete(id);
    this.#revoked.set(session.id, session.expiresAt);
  }
}
