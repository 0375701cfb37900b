// `auth: jwt({ … })`: the options of bearer-token authentication, checked when declared (a SetupError names the
// bad key). Verifying needs jose, which loads with the first server that has `auth` (jwt-auth.ts), not here.
import { SetupError } from '../errors';
import type { AnyContext } from '../model/options';
import { Secret } from '../secrets/secret';
import type { SecurityOptions } from '../openapi/security';

/** The verified claims of a token (its JWT payload): `sub`, `iss`, `aud`, `exp`, and whatever the issuer adds. */
export type JwtClaims = Record<string, unknown> & { sub?: string; iss?: string; aud?: string | string[]; exp?: number; iat?: number; nbf?: number };

/** How long jose keeps a JWKS and how often it may fetch it again (jose's createRemoteJWKSet options), in ms. */
export interface JwksCacheOptions {
  /** After a fetch, no new fetch for this long, even for a token whose `kid` is unknown. Default 30 000. */
  cooldownDuration?: number;
  /** The fetched keys are kept this long; a token whose `kid` is missing from them fetches sooner. Default 600 000. */
  cacheMaxAge?: number;
  /** A fetch that takes longer fails (the request answers 503). Default 5 000. */
  timeoutDuration?: number;
}

/** The options of `jwt()`: exactly one of `secret` (HMAC) and `jwksUrl` (the issuer's public keys). */
export interface JwtOptions {
  /** The HMAC secret (HS256, HS384, HS512) tokens are signed with, at least 32 bytes; a `secret()` reference allowed. */
  secret?: string | Secret<string, boolean>;
  /** The issuer's JSON Web Key Set (RS*, PS*, ES*, EdDSA), fetched when first needed and cached (`jwks`). */
  jwksUrl?: string | URL;
  /** The accepted `iss` (one or several); checked when given. */
  issuer?: string | string[];
  /** The accepted `aud` (the token must name one of them); checked when given. */
  audience?: string | string[];
  /** The accepted `alg`s. Default: HS256, HS384, HS512 with `secret`; the asymmetric ones with `jwksUrl`. */
  algorithms?: string[];
  /** The caller context of a verified token. Default `(claims) => ({ user: claims })`. */
  claims?: (claims: JwtClaims) => AnyContext;
  /** `true`: a request without a token answers 401. Default false: it goes on without `ctx.user` (authorize decides). */
  required?: boolean;
  /** Seconds of clock skew allowed on `exp` and `nbf`. Default 5. */
  clockTolerance?: number;
  /** The JWKS cache (with `jwksUrl`). */
  jwks?: JwksCacheOptions;
}

/** What `jwt()` returns: the checked options, for createServer's `auth`. */
export interface JwtAuth {
  readonly kind: 'jwt';
  readonly options: Readonly<JwtOptions>;
}

export const HMAC_ALGORITHMS = ['HS256', 'HS384', 'HS512'];
export const ASYMMETRIC_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA', 'Ed25519'];
/** RFC 7518 §3.2: an HMAC key at least as long as the hash; 32 bytes for HS256. */
export const MIN_SECRET_BYTES = 32;
export const DEFAULT_CLOCK_TOLERANCE = 5;

const OPTION_KEYS = ['secret', 'jwksUrl', 'issuer', 'audience', 'algorithms', 'claims', 'required', 'clockTolerance', 'jwks'];
const JWKS_KEYS = ['cooldownDuration', 'cacheMaxAge', 'timeoutDuration'];

function isStringList(value: unknown): boolean {
  return typeof value === 'string' ? value !== '' : Array.isArray(value) && value.length > 0 && value.every((item) => typeof item === 'string' && item !== '');
}

function checkJwksUrl(value: unknown): void {
  if (typeof value !== 'string' && !(value instanceof URL)) throw new SetupError('jwt: jwksUrl must be a string or a URL');
  let url: URL;
  try {
    url = new URL(String(value));
  } catch {
    throw new SetupError('jwt: jwksUrl must be an absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new SetupError('jwt: jwksUrl must be an http(s) URL');
}

function checkAlgorithms(algorithms: unknown, allowed: readonly string[], keyKind: string): void {
  if (!Array.isArray(algorithms) || algorithms.length === 0) throw new SetupError('jwt: algorithms must be a non-empty list');
  for (const algorithm of algorithms) {
    if (!allowed.includes(algorithm)) throw new SetupError(`jwt: algorithm ${JSON.stringify(algorithm)} does not go with ${keyKind} (${allowed.join(', ')})`);
  }
}

function checkDurations(jwks: unknown): void {
  if (typeof jwks !== 'object' || jwks === null) throw new SetupError('jwt: jwks must be { cooldownDuration?, cacheMaxAge?, timeoutDuration? }');
  for (const [key, value] of Object.entries(jwks)) {
    if (!JWKS_KEYS.includes(key)) throw new SetupError(`jwt: jwks.${key} is not a JWKS cache option (${JWKS_KEYS.join(', ')})`);
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) throw new SetupError(`jwt: jwks.${key} must be a whole number of milliseconds`);
  }
}

/**
 * Bearer-token authentication for createServer's `auth`: each request's `Authorization: Bearer <JWT>` is
 * verified (signature, `exp`, `nbf`, and `iss`/`aud` when given) and its claims become the caller context
 * (`ctx.user` by default) for authorize, scope, scrub and hooks. A bad, expired or not yet valid token answers
 * 401 UNAUTHORIZED with `WWW-Authenticate: Bearer error="invalid_token"`.
 *
 * @example
 * createServer({
 *   auth: jwt({
 *     jwksUrl: 'https://example.eu.auth0.com/.well-known/jwks.json',
 *     issuer: 'https://example.eu.auth0.com/',
 *     audience: 'https://api.example.com',
 *   }),
 * });
 */
export function jwt(options: JwtOptions): JwtAuth {
  if (typeof options !== 'object' || options === null) throw new SetupError('jwt() takes { secret } or { jwksUrl }, with issuer, audience, algorithms, claims');
  for (const key of Object.keys(options)) if (!OPTION_KEYS.includes(key)) throw new SetupError(`jwt: ${key} is not a jwt option (${OPTION_KEYS.join(', ')})`);
  const hasSecret = options.secret !== undefined;
  if (hasSecret === (options.jwksUrl !== undefined)) throw new SetupError('jwt: give exactly one of secret (HMAC) and jwksUrl (the issuer\'s public keys)');
  if (hasSecret) {
    if (!(options.secret instanceof Secret) && typeof options.secret !== 'string') throw new SetupError('jwt: secret must be a string or a secret() reference');
    if (typeof options.secret === 'string') checkSecretLength(options.secret);
  } else {
    checkJwksUrl(options.jwksUrl);
  }
  if (options.algorithms !== undefined) checkAlgorithms(options.algorithms, hasSecret ? HMAC_ALGORITHMS : ASYMMETRIC_ALGORITHMS, hasSecret ? 'a secret' : 'a JWKS');
  if (options.issuer !== undefined && !isStringList(options.issuer)) throw new SetupError('jwt: issuer must be a non-empty string or list of strings');
  if (options.audience !== undefined && !isStringList(options.audience)) throw new SetupError('jwt: audience must be a non-empty string or list of strings');
  if (options.claims !== undefined && typeof options.claims !== 'function') throw new SetupError('jwt: claims must be a function of the verified claims answering the caller context');
  if (options.required !== undefined && typeof options.required !== 'boolean') throw new SetupError('jwt: required must be true or false');
  const tolerance = options.clockTolerance;
  if (tolerance !== undefined && (typeof tolerance !== 'number' || !Number.isFinite(tolerance) || tolerance < 0)) throw new SetupError('jwt: clockTolerance must be a number of seconds, 0 or more');
  if (options.jwks !== undefined) {
    if (hasSecret) throw new SetupError('jwt: jwks (the key set cache) goes with jwksUrl, not secret');
    checkDurations(options.jwks);
  }
  return Object.freeze({ kind: 'jwt', options: Object.freeze({ ...options }) });
}

/** A secret's bytes, refused below 32 (a short HMAC key can be found by brute force). Never quotes the value. */
export function checkSecretLength(value: string, name = 'secret'): Uint8Array {
  const bytes = new TextEncoder().encode(value);
  if (bytes.length < MIN_SECRET_BYTES) throw new SetupError(`jwt: ${name} must be at least ${MIN_SECRET_BYTES} bytes (it has ${bytes.length})`);
  return bytes;
}

/** Whether `value` is what `jwt()` returns (createServer's check of `auth`). */
export function isJwtAuth(value: unknown): value is JwtAuth {
  return typeof value === 'object' && value !== null && (value as JwtAuth).kind === 'jwt' && typeof (value as JwtAuth).options === 'object';
}

/**
 * The OpenAPI security of a server with `auth` and no `security` option: one bearer JWT scheme, needed by every
 * route of a resource with access rules (the `security` option's default), so /docs and /swagger ask for a token.
 */
export function jwtSecurity(): SecurityOptions {
  return { schemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'A JSON Web Token from the issuer: `Authorization: Bearer <token>`, verified as RFC8725 (JWT best current practices) asks: allowed algorithms only, signature, `exp`/`nbf`, issuer and audience.' } } };
}
