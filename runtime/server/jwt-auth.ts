// The bearer-token layer of `auth: jwt(…)` (RFC 6750), with jose: it verifies `Authorization: Bearer <JWT>` on
// every action route before the body is read, keeps the verified claims on `req.auth` for the caller context
// and the rate limit, and answers 401 with a `WWW-Authenticate: Bearer` challenge otherwise.
import { webcrypto } from 'node:crypto';
import type { RequestHandler, Response } from 'express';
import { createRemoteJWKSet, jwtVerify, type JWTVerifyGetKey, type JWTVerifyOptions } from 'jose';
import { TesseraError } from '../errors';
import type { AnyContext } from '../model/options';
import type { SecretSource } from '../secrets/secret-source';
import { ASYMMETRIC_ALGORITHMS, checkSecretLength, DEFAULT_CLOCK_TOLERANCE, HMAC_ALGORITHMS, type JwtAuth, type JwtClaims } from './jwt-options';

/** RFC 6750 §2.1: `Bearer` (any case), then the token's b64token characters. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** jose's codes for a token that is not acceptable: the caller's mistake, answered 401 invalid_token. */
const TOKEN_FAULTS = new Set([
  'ERR_JWT_EXPIRED',
  'ERR_JWT_CLAIM_VALIDATION_FAILED',
  'ERR_JWT_INVALID',
  'ERR_JWS_INVALID',
  'ERR_JWS_SIGNATURE_VERIFICATION_FAILED',
  'ERR_JOSE_ALG_NOT_ALLOWED',
  'ERR_JOSE_NOT_SUPPORTED',
  'ERR_JWKS_NO_MATCHING_KEY',
  'ERR_JWKS_MULTIPLE_MATCHING_KEYS',
]);
/** jose's codes for a key set that cannot be had (unreachable, slow, not a JWKS): not the caller's fault, 503. */
const KEY_SET_FAULTS = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID', 'ERR_JWK_INVALID', 'ERR_JOSE_GENERIC']);

/** What the claims check found wrong, in our words (jose's messages are not an API); docs/errors.md lists them. */
const CLAIM_PROBLEMS: Record<string, string> = {
  nbf: 'the bearer token is not valid yet',
  iss: 'the bearer token comes from another issuer',
  aud: 'the bearer token is meant for another audience',
};

/** The verified caller: what the layer verified, and how its claims become the caller context. */
export interface Authenticator {
  readonly layer: RequestHandler;
  readonly toContext: (claims: JwtClaims) => AnyContext;
}

/** The claims `jwt()`'s layer verified for this request, or undefined for an anonymous one. */
export function claimsOf(req: object): JwtClaims | undefined {
  return (req as { auth?: JwtClaims }).auth;
}

function describeTokenFault(error: { code?: unknown; claim?: unknown; reason?: unknown }): string {
  if (error.code === 'ERR_JWT_EXPIRED') return 'the bearer token has expired';
  // A claim of the wrong type (`"iat": "x"`, jose's reason "invalid") makes a malformed token like any other.
  if (error.code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && error.reason !== 'invalid') return CLAIM_PROBLEMS[String(error.claim)] ?? 'the bearer token is not valid';
  return 'the bearer token is not valid';
}

/** Sets the challenge and answers the error the request fails with. RFC 9110 §11.6.1: every 401 names its scheme. */
function refuse(res: Response, message: string, isTokenFault: boolean): TesseraError {
  res.setHeader('WWW-Authenticate', isTokenFault ? `Bearer error="invalid_token", error_description="${message}"` : 'Bearer');
  return new TesseraError('UNAUTHORIZED', message);
}

function verificationFailure(res: Response, error: unknown): TesseraError {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && TOKEN_FAULTS.has(code)) return refuse(res, describeTokenFault(error as { code: string }), true);
  // A fetch that failed (TypeError: fetch failed) or a key set jose could not use: the issuer's side.
  if ((typeof code === 'string' && KEY_SET_FAULTS.has(code)) || (error instanceof TypeError && error.message === 'fetch failed')) {
    return new TesseraError('SERVICE_UNAVAILABLE', 'the signing keys of the token issuer cannot be fetched; retry later', undefined, { cause: error });
  }
  return new TesseraError('INTERNAL_ERROR', undefined, undefined, { cause: error });
}

/** The HMAC key per algorithm, imported once (jose would import the raw secret again on every call). */
function hmacKeys(secret: Uint8Array): JWTVerifyGetKey {
  const keys = new Map<string, Promise<webcrypto.CryptoKey>>();
  return (header) => {
    const alg = header.alg ?? '';
    let key = keys.get(alg);
    if (key === undefined && HMAC_ALGORITHMS.includes(alg)) {
      key = webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: `SHA-${alg.slice(2)}` }, false, ['verify']);
      keys.set(alg, key);
    }
    // An algorithm outside the list is refused by jwtVerify's `algorithms` check before a key is asked for.
    return key ?? Promise.reject(Object.assign(new Error('algorithm not allowed'), { code: 'ERR_JOSE_ALG_NOT_ALLOWED' }));
  };
}

function defaultContext(claims: JwtClaims): AnyContext {
  return { user: claims };
}

/** The layer and context mapping of `auth`; the key material is read now (a `secret()` reference from `source`). */
export function createAuthenticator(auth: JwtAuth, source?: SecretSource): Authenticator {
  const { options } = auth;
  let getKey: JWTVerifyGetKey;
  if (options.secret !== undefined) {
    const value = typeof options.secret === 'string' ? options.secret : options.secret.require(source);
    getKey = hmacKeys(checkSecretLength(value, typeof options.secret === 'string' ? 'secret' : `secret ${options.secret.name}`));
  } else {
    getKey = createRemoteJWKSet(new URL(String(options.jwksUrl)), options.jwks ?? {});
  }
  const verifyOptions: JWTVerifyOptions = {
    algorithms: options.algorithms ?? (options.secret !== undefined ? HMAC_ALGORITHMS : ASYMMETRIC_ALGORITHMS),
    clockTolerance: options.clockTolerance ?? DEFAULT_CLOCK_TOLERANCE,
  };
  if (options.issuer !== undefined) verifyOptions.issuer = options.issuer;
  if (options.audience !== undefined) verifyOptions.audience = options.audience;
  const isRequired = options.required === true;

  const layer: RequestHandler = function authenticate(req, res, next) {
    const header = req.headers.authorization;
    if (header === undefined) return isRequired ? next(refuse(res, 'a bearer token is required', false)) : next();
    const bearer = BEARER.exec(header);
    // RFC 6750 §3.1: credentials of another scheme are no token at all: the bare challenge, no error code.
    if (bearer === null) return next(refuse(res, 'the Authorization header must be "Bearer <token>"', false));
    jwtVerify(bearer[1], getKey, verifyOptions).then(
      ({ payload }) => {
        (req as { auth?: JwtClaims }).auth = payload as JwtClaims;
        next();
      },
      (error: unknown) => next(verificationFailure(res, error)),
    );
  };
  return { layer, toContext: options.claims ?? defaultContext };
}
