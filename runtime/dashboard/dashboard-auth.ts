// Who may read the dashboard (spec §5.2, CONTRACT §8). With tokens: `Authorization: Bearer <token>` (any
// token of the list, compared in constant time) or the session cookie the sign-in form obtains with that
// header. The cookie holds its issue time and an HMAC of it keyed by the token, so it proves which token
// signed in without containing it, and stops working when that token is removed from the list. Then
// `authorize(request)`, given a WHATWG Request: true lets in, false refuses, a Response is sent as it is.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ResolvedDashboardOptions } from './dashboard-options';

/** A session lasts 12 hours; then the form asks for the token again. */
export const SESSION_SECONDS = 12 * 60 * 60;
/** A cookie issued a little "in the future" by a clock that was ahead is still accepted. */
const CLOCK_SKEW_SECONDS = 60;
const COOKIE_VALUE = /^([0-9]{1,12})\.([A-Za-z0-9_-]{43})$/;

export type AuthVerdict = { readonly kind: 'allowed' } | { readonly kind: 'denied' } | { readonly kind: 'response'; readonly response: Response };

const ALLOWED: AuthVerdict = Object.freeze({ kind: 'allowed' });
const DENIED: AuthVerdict = Object.freeze({ kind: 'denied' });

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}

function sessionMac(token: string, issuedAt: number): Buffer {
  return createHmac('sha256', token).update(`tessera-dashboard-session:${issuedAt}`).digest();
}

/** The value of a request header, joined when it was sent several times. */
function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function bearerToken(req: IncomingMessage): string | null {
  const match = /^Bearer[ ]+(\S+)\s*$/i.exec(header(req, 'authorization') ?? '');
  return match === null ? null : match[1];
}

function cookieValue(req: IncomingMessage, name: string): string | null {
  for (const part of (header(req, 'cookie') ?? '').split(';')) {
    const equals = part.indexOf('=');
    if (equals !== -1 && part.slice(0, equals).trim() === name) return part.slice(equals + 1).trim();
  }
  return null;
}

/** The request as the WHATWG Request that `authorize` receives (method, URL and headers; never a body: the dashboard is read-only). */
export function toWhatwgRequest(req: IncomingMessage, fallbackHost: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const each of Array.isArray(value) ? value : [value]) headers.append(name, each);
  }
  let url: URL;
  try {
    url = new URL(req.url ?? '/', `http://${req.headers.host ?? fallbackHost}`);
  } catch {
    url = new URL(req.url ?? '/', `http://${fallbackHost}`);
  }
  return new Request(url, { method: req.method, headers });
}

export class DashboardAuth {
  readonly #options: ResolvedDashboardOptions;
  /** Set once the server listens: the cookie is named after the port, so two dashboards on one host keep theirs. */
  cookieName = 'tessera_dashboard';

  constructor(options: ResolvedDashboardOptions) {
    this.#options = options;
  }

  /** No auth configured: a loopback-only dashboard that lets everyone in (the loopback rule was checked at setup). */
  get isOpen(): boolean {
    return this.#options.tokens.length === 0 && this.#options.authorize === null;
  }

  get hasTokens(): boolean {
    return this.#options.tokens.length > 0;
  }

  /** Reads every token now (secret references resolve at each read); throws SecretError when one is missing. */
  tokenValues(): string[] {
    const source = this.#options.secretSource;
    return this.#options.tokens.map((token) => (typeof token === 'string' ? token : String(token.require(source))));
  }

  /** The index of the token `candidate` equals, or -1; every token is compared, in constant time. */
  matchToken(candidate: string): number {
    const wanted = digest(candidate);
    let found = -1;
    this.tokenValues().forEach((token, index) => {
      if (timingSafeEqual(digest(token), wanted) && found === -1) found = index;
    });
    return found;
  }

  /** The Set-Cookie value of a new session for the token at `index`. */
  sessionCookie(index: number, isSecure: boolean, now = Date.now()): string {
    const issuedAt = Math.floor(now / 1000);
    const value = `${issuedAt}.${sessionMac(this.tokenValues()[index], issuedAt).toString('base64url')}`;
    return `${this.cookieName}=${value}; Path=/; Max-Age=${SESSION_SECONDS}; HttpOnly; SameSite=Strict${isSecure ? '; Secure' : ''}`;
  }

  /** The Set-Cookie value that ends the session. */
  clearedCookie(): string {
    return `${this.cookieName}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict`;
  }

  hasValidSession(req: IncomingMessage, now = Date.now()): boolean {
    const match = COOKIE_VALUE.exec(cookieValue(req, this.cookieName) ?? '');
    if (match === null) return false;
    const issuedAt = Number(match[1]);
    const age = Math.floor(now / 1000) - issuedAt;
    if (age > SESSION_SECONDS || age < -CLOCK_SKEW_SECONDS) return false;
    const presented = Buffer.from(match[2], 'base64url');
    let isValid = false;
    for (const token of this.tokenValues()) {
      const expected = sessionMac(token, issuedAt);
      if (expected.length === presented.length && timingSafeEqual(expected, presented)) isValid = true;
    }
    return isValid;
  }

  /** Whether `req` may read the dashboard: its token or session first, then `authorize`. */
  async check(req: IncomingMessage): Promise<AuthVerdict> {
    if (this.isOpen) return ALLOWED;
    if (this.hasTokens) {
      const bearer = bearerToken(req);
      if (bearer !== null && this.matchToken(bearer) !== -1) return ALLOWED;
      if (this.hasValidSession(req)) return ALLOWED;
    }
    const authorize = this.#options.authorize;
    if (authorize === null) return DENIED;
    const answer = await authorize(toWhatwgRequest(req, this.#options.host));
    if (answer === true) return ALLOWED;
    if (answer instanceof Response) return { kind: 'response', response: answer };
    return DENIED;
  }

  /** The token of an `Authorization: Bearer` header, for the sign-in route. */
  bearerIndex(req: IncomingMessage): number {
    const bearer = bearerToken(req);
    return bearer === null || !this.hasTokens ? -1 : this.matchToken(bearer);
  }
}
