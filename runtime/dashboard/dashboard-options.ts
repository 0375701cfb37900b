// The `dashboard` server option (spec §4.3, CONTRACT §8): checked and given its defaults once, at
// createServer, so a mistake stops the start before anything listens. Includes the loopback rule (spec §5.2):
// a dashboard bound beyond loopback must have `auth`.
import net from 'node:net';
import { SetupError } from '../errors';
import { Secret } from '../secrets/secret';
import type { SecretSource } from '../secrets/secret-source';

/** A dashboard token: the value itself, or a secret reference such as `secret('DASHBOARD_TOKEN')`. */
export type DashboardToken = string | Secret<string, boolean>;

export interface DashboardAuthOptions {
  /** One token or several (any of them lets in): `Authorization: Bearer <token>`, or the sign-in form's cookie. */
  token?: DashboardToken | DashboardToken[];
  /** Decides on each request: `true` lets it in, `false` answers 401, a `Response` is sent as it is. */
  authorize?: (request: Request) => boolean | Response | Promise<boolean | Response>;
  /**
   * Signs the sign-in form's session cookies (at least 32 characters; a `secret('…')` reference allowed). Replicas
   * behind one address need the same one to accept each other's sign-ins. Default: a random key per process.
   */
  sessionSecret?: DashboardToken;
}

export interface DashboardOptions {
  /** Default 4001; 0 takes any free port. */
  port?: number;
  /** Default `127.0.0.1`. Beyond loopback, `auth` is required. */
  host?: string;
  auth?: DashboardAuthOptions;
  /** Days of per-minute history kept. Default 7. */
  historyDays?: number;
  /** The history's SQLite file. Default `.tessera/dashboard-history.db`, relative to the working directory. */
  historyFile?: string;
  /**
   * Host names the dashboard answers (the `Host` header), besides loopback ones (`localhost`, `127.0.0.1`, `[::1]`).
   * Without auth only those are answered (DNS rebinding); given, the list holds with auth too.
   */
  allowedHosts?: string[];
}

export interface ResolvedDashboardOptions {
  readonly port: number;
  readonly host: string;
  readonly tokens: readonly DashboardToken[];
  readonly authorize: NonNullable<DashboardAuthOptions['authorize']> | null;
  readonly sessionSecret: DashboardToken | null;
  /** Lower-case host names besides loopback ones; null: any host when auth is set, loopback names only without. */
  readonly allowedHosts: readonly string[] | null;
  readonly historyDays: number;
  readonly historyFile: string;
  /** Where secret-reference tokens are read (the server's `secrets.source`; process.env when undefined). */
  readonly secretSource: SecretSource | undefined;
}

export const DEFAULT_DASHBOARD_PORT = 4001;
export const DEFAULT_DASHBOARD_HOST = '127.0.0.1';
export const DEFAULT_HISTORY_DAYS = 7;
export const DEFAULT_HISTORY_FILE = '.tessera/dashboard-history.db';

const OPTION_KEYS = ['port', 'host', 'auth', 'historyDays', 'historyFile', 'allowedHosts'];
const AUTH_KEYS = ['token', 'authorize', 'sessionSecret'];
/** 32 characters: 128 bits and more of a hex or base64 key (`openssl rand -hex 32` gives 64). */
export const MIN_SESSION_SECRET_LENGTH = 32;
const HOST_NAME = /^[a-z0-9.-]+$|^\[[0-9a-f:.]+\]$/;

// spec §5.2 / CONTRACT §8: 127.0.0.0/8, ::1 (IPv4-mapped forms included) and `localhost`.
const LOOPBACK = new net.BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');
LOOPBACK.addSubnet('::ffff:127.0.0.0', 104, 'ipv6');

export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare.toLowerCase() === 'localhost') return true;
  const family = net.isIP(bare);
  return family !== 0 && LOOPBACK.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkKeys(value: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw new SetupError(`${where}.${key} is not an option (expected ${allowed.join(', ')})`);
  }
}

function resolveSessionSecret(value: unknown, hasTokens: boolean): DashboardToken | null {
  if (value === undefined) return null;
  if (!hasTokens) throw new SetupError('dashboard.auth.sessionSecret signs the sessions of the token sign-in form: it needs dashboard.auth.token');
  if (value instanceof Secret) return value;
  if (typeof value !== 'string') throw new SetupError("dashboard.auth.sessionSecret must be a string or a secret('…') reference");
  if (value.length < MIN_SESSION_SECRET_LENGTH) throw new SetupError(`dashboard.auth.sessionSecret must be at least ${MIN_SESSION_SECRET_LENGTH} characters (openssl rand -hex 32)`);
  return value;
}

function resolveAllowedHosts(value: unknown): string[] | null {
  if (value === undefined) return null;
  if (!Array.isArray(value)) throw new SetupError('dashboard.allowedHosts must be a list of host names, such as ["dashboard.internal"]');
  return value.map((host, index) => {
    if (typeof host !== 'string' || !HOST_NAME.test(host.toLowerCase())) throw new SetupError(`dashboard.allowedHosts[${index}] must be a host name without port, such as "dashboard.internal"`);
    return host.toLowerCase();
  });
}

function resolveTokens(token: unknown): DashboardToken[] {
  if (token === undefined) return [];
  const tokens = Array.isArray(token) ? token : [token];
  if (tokens.length === 0) throw new SetupError('dashboard.auth.token is an empty list: give at least one token');
  tokens.forEach((each, index) => {
    const where = Array.isArray(token) ? `dashboard.auth.token[${index}]` : 'dashboard.auth.token';
    if (each instanceof Secret) return;
    if (typeof each !== 'string') throw new SetupError(`${where} must be a string or a secret('…') reference`);
    if (each === '') throw new SetupError(`${where} is empty`);
  });
  return tokens as DashboardToken[];
}

/** Checks the option and applies its defaults; a SetupError names what is wrong (never a token's value). */
export function resolveDashboardOptions(option: unknown, secretSource?: SecretSource): ResolvedDashboardOptions {
  if (!isObject(option)) throw new SetupError('dashboard must be an object: { port?, host?, auth?, historyDays?, historyFile?, allowedHosts? }');
  checkKeys(option, OPTION_KEYS, 'dashboard');
  const port = option.port ?? DEFAULT_DASHBOARD_PORT;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 0 || port > 65535) throw new SetupError('dashboard.port must be an integer from 0 to 65535');
  const host = option.host ?? DEFAULT_DASHBOARD_HOST;
  if (typeof host !== 'string' || host.trim() === '') throw new SetupError('dashboard.host must be a non-empty string');
  const historyDays = option.historyDays ?? DEFAULT_HISTORY_DAYS;
  if (typeof historyDays !== 'number' || !Number.isInteger(historyDays) || historyDays < 1) throw new SetupError('dashboard.historyDays must be a whole number of days, 1 or more');
  const historyFile = option.historyFile ?? DEFAULT_HISTORY_FILE;
  if (typeof historyFile !== 'string' || historyFile === '') throw new SetupError('dashboard.historyFile must be a non-empty path');

  let tokens: DashboardToken[] = [];
  let authorize: ResolvedDashboardOptions['authorize'] = null;
  let sessionSecret: DashboardToken | null = null;
  if (option.auth !== undefined) {
    if (!isObject(option.auth)) throw new SetupError('dashboard.auth must be an object: { token?, authorize?, sessionSecret? }');
    checkKeys(option.auth, AUTH_KEYS, 'dashboard.auth');
    tokens = resolveTokens(option.auth.token);
    if (option.auth.authorize !== undefined) {
      if (typeof option.auth.authorize !== 'function') throw new SetupError('dashboard.auth.authorize must be a function (request) => boolean | Response');
      authorize = option.auth.authorize as ResolvedDashboardOptions['authorize'];
    }
    if (tokens.length === 0 && authorize === null) throw new SetupError('dashboard.auth needs a token or an authorize function');
    sessionSecret = resolveSessionSecret(option.auth.sessionSecret, tokens.length > 0);
  }
  // spec §5.2: authentication is required whenever the dashboard is bound beyond loopback.
  if (tokens.length === 0 && authorize === null && !isLoopbackHost(host)) {
    throw new SetupError(`dashboard: host ${JSON.stringify(host)} is beyond loopback, so dashboard.auth (a token or authorize) is required; or bind it to 127.0.0.1`);
  }
  return { port, host, tokens, authorize, sessionSecret, allowedHosts: resolveAllowedHosts(option.allowedHosts), historyDays, historyFile, secretSource };
}
