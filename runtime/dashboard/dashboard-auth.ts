// Who may read the dashboard (spec §5.2, CONTRACT §8). With tokens: `Authorization: Bearer <token>` (any
// token of the list, compared in constant time) or the session cookie the sign-in form obtains with that
// header (dashboard-sessions.ts: signed, bound to its token, revoked by sign-out). Then `authorize(request)`,
// given a WHATWG Request: true lets in, false refuses, a Response is sent as it is. A secret that cannot be
// read at run time (a token, the session secret) is no refusal: it is answered 503 with a line in the log.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { SetupError } from '../errors';
import { SecretError } from '../secrets/secret-error';
import { MIN_SESSION_SECRET_LENGTH, type DashboardToken, type ResolvedDashboardOptions } from './dashboard-options';
import { DashboardSessions, SESSION_SECONDS, type VerifiedSession } from './dashboard-sessions';

export type AuthVerdict =
  | { readonly kind: 'allowed' }
  | { readonly kind: 'denied' }
  | { readonly kind: 'response'; readonly response: Response }
  /** A secret the dashboard needs cannot be read now: `problem` names it (never a value). */
  | { readonly kind: 'unavailable'; readonly problem: string };

const ALLOWED: AuthVerdict = Object.freeze({ kind: 'allowed' });
const DENIED: AuthVerdict = Object.freeze({ kind: 'denied' });

function digest(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
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

/** The value of a token or of the session secret now (a secret reference is read at each call: it may rotate). */
function valueOf(token: DashboardToken, options: ResolvedDashboardOptions): string {
  return typeof token === 'string' ? token : String(token.require(options.secretSource));
}

/** What a SecretError says (the secret's name and rule), or rethrows anything else. */
function secretProblem(error: unknown): string {
  if (error instanceof SecretError) return error.message;
  throw error;
}

export class DashboardAuth {
  readonly #options: ResolvedDashboardOptions;
  readonly #sessions: DashboardSessions;
  /** Set once the server listens: the cookie is named after the port, so two dashboards on one host keep theirs. */
  cookieName = 'tessera_dashboard';

  constructor(options: ResolvedDashboardOptions) {
    this.#options = options;
    const secret = options.sessionSecret;
    this.#sessions = new DashboardSessions(secret === null ? null : () => valueOf(secret, options));
  }

  /** No auth configured: a loopback-only dashboard that lets everyone in (the loopback rule was checked at setup). */
  get isOpen(): boolean {
    return this.#options.tokens.length === 0 && this.#options.authorize === null;
  }

  get hasTokens(): boolean {
    return this.#options.tokens.length > 0;
  }

  /** Sessions are signed with this process's random key (no `sessionSecret`): other replicas refuse them. */
  get hasRandomSessionKey(): boolean {
    return this.hasTokens && this.#options.sessionSecret === null;
  }

  /**
   * Reads every token and the session secret now, so a missing one stops the start (SecretError) rather than the
   * first request; a session secret shorter than MIN_SESSION_SECRET_LENGTH is a SetupError.
   */
  checkSecrets(): void {
    this.#tokenValues();
    const secret = this.#options.sessionSecret;
    if (secret !== null && valueOf(secret, this.#options).length < MIN_SESSION_SECRET_LENGTH) {
      throw new SetupError(`dashboard.auth.sessionSecret must be at least ${MIN_SESSION_SECRET_LENGTH} characters (openssl rand -hex 32)`);
    }
  }

  #tokenValues(): string[] {
    return this.#options.tokens.map((token) => valueOf(token, this.#options));
  }

  /** The token `candidate` equals, or null; every token is compared, in constant time. */
  #matchToken(candidate: string, tokens: readonly string[]): string | null {
    const wanted = digest(candidate);
    let found: string | null = null;
    for (const token of tokens) if (timingSafeEqual(digest(token), wanted) && found === null) found = token;
    return found;
  }

  #session(req: IncomingMessage, tokens: readonly string[], now: number): VerifiedSession | null {
    const value = cookieValue(req, this.cookieName);
    return value === null ? null : this.#sessions.verify(value, tokens, now);
  }

  /**
   * The sign-in route: for a valid `Authorization: Bearer` token, the Set-Cookie value of a new session
   * (null for none or a wrong one); `unavailable` when a secret cannot be read now.
   */
  signIn(req: IncomingMessage, isSecure: boolean, now = Date.now()): { cookie: string | null } | { unavailable: string } {
    const bearer = bearerToken(req);
    if (bearer === null || !this.hasTokens) return { cookie: null };
    try {
      const token = this.#matchToken(bearer, this.#tokenValues());
      if (token === null) return { cookie: null };
      const value = this.#sessions.issue(token, now);
      return { cookie: `${this.cookieName}=${value}; Path=/; Max-Age=${SESSION_SECONDS}; HttpOnly; SameSite=Strict${isSecure ? '; Secure' : ''}` };
    } catch (error) {
      return { unavailable: secretProblem(error) };
    }
  }

  /** Sign-out: revokes the request's session here (when it has a valid one), and answers the Set-Cookie value that clears it. */
  signOut(req: IncomingMessage, now = Date.now()): string {
    try {
      const session = this.hasTokens ? this.#session(req, this.#tokenValues(), now) : null;
      if (session !== null) this.#sessions.revoke(session, now);
    } catch (error) {
      secretProblem(error); // a secret missing now: the cookie is cleared all the same
    }
    return `${this.cookieName}=; Path=/; Max-Age=0; HttpOnly; SameSite=Strict`;
  }

  /** Whether `req` may read the dashboard: its token or session first, then `authorize`. */
  async check(req: IncomingMessage, now = Date.now()): Promise<AuthVerdict> {
    if (this.isOpen) return ALLOWED;
    if (this.hasTokens) {
      try {
        const tokens = this.#tokenValues();
        const bearer = bearerToken(req);
        if (bearer !== null && this.#matchToken(bearer, tokens) !== null) return ALLOWED;
        if (this.#session(req, tokens, now) !== null) return ALLOWED;
      } catch (error) {
        return { kind: 'unavailable', problem: secretProblem(error) };
      }
    }
    const authorize = this.#options.authorize;
    if (authorize === null) return DENIED;
    const answer = await authorize(toWhatwgRequest(req, this.#options.host));
    if (answer === true) return ALLOWED;
    if (answer instanceof Response) return { kind: 'response', response: answer };
    return DENIED;
  }
}
