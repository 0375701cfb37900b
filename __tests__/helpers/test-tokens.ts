// Tokens for the auth tests: the issuer and audience they name, and HS256 tokens signed with the tests' secret,
// any part of which can be spoiled (another secret, issuer, audience, an expiry in the past).
import { SignJWT } from 'jose';

export const ISSUER = 'https://issuer.test/';
export const AUDIENCE = 'https://api.test';
export const SECRET = 'a-test-secret-of-at-least-32-bytes!!';

/** Now, in seconds since the epoch (JWT NumericDate). */
export const now = (): number => Math.floor(Date.now() / 1000);

export interface HmacTokenOptions {
  secret?: string;
  issuer?: string;
  audience?: string;
  exp?: number;
  nbf?: number;
}

/** An HS256 token for ISSUER and AUDIENCE, valid for an hour unless told otherwise. */
export function hmacToken(claims: Record<string, unknown>, { secret = SECRET, issuer = ISSUER, audience = AUDIENCE, exp = now() + 3600, nbf }: HmacTokenOptions = {}): Promise<string> {
  const token = new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuer(issuer).setAudience(audience).setExpirationTime(exp);
  if (nbf !== undefined) token.setNotBefore(nbf);
  return token.sign(new TextEncoder().encode(secret));
}
