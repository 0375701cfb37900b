// A local identity provider's key endpoint for the auth tests: a real HTTP server on 127.0.0.1 serving a JSON Web
// Key Set, whose key can be rotated, and which signs tokens with any key it ever had. It counts its fetches, so a
// test can see when the server under test fetched the set again.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from 'jose';
import { AUDIENCE, ISSUER } from './test-tokens';

interface SigningKey {
  readonly kid: string;
  readonly privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  readonly jwk: Record<string, unknown>;
}

export const JWKS_PATH = '/.well-known/jwks.json';

export class JwksServer {
  /** Every key made so far, the published ones last. */
  readonly #keys: SigningKey[] = [];
  /** How many of the last keys the set publishes. */
  #published = 1;
  #server: http.Server | null = null;
  #isDown = false;
  fetches = 0;
  url = '';

  /** Starts the server with one key (`key-1`). */
  async start(): Promise<this> {
    await this.#addKey();
    this.#server = http.createServer((req, res) => {
      if (req.url !== JWKS_PATH) return void res.writeHead(404).end();
      this.fetches += 1;
      if (this.#isDown) return void res.writeHead(503, { 'content-type': 'text/plain' }).end('down for maintenance');
      const keys = this.#keys.slice(-this.#published).map((key) => key.jwk);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys }));
    });
    await new Promise<void>((resolve) => this.#server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}${JWKS_PATH}`;
    return this;
  }

  /** A new key becomes the only published one (`keep`: the previous one stays published beside it). */
  async rotate({ keep = false }: { keep?: boolean } = {}): Promise<string> {
    await this.#addKey();
    this.#published = keep ? 2 : 1;
    return this.#keys[this.#keys.length - 1].kid;
  }

  /** Makes a key that is never published, as a forger would. */
  async unpublishedKey(): Promise<string> {
    const published = this.#published;
    await this.#addKey();
    const key = this.#keys.pop()!;
    this.#keys.unshift(key); // kept for signing, outside the published tail
    this.#published = published;
    return key.kid;
  }

  /** While down, the endpoint answers 503 (the set cannot be had). */
  setDown(isDown: boolean): void {
    this.#isDown = isDown;
  }

  /** A token signed by `kid` (default: the newest key), issued by ISSUER for AUDIENCE, valid for an hour. */
  async sign(claims: JWTPayload, { kid, expiresIn = '1h' }: { kid?: string; expiresIn?: string } = {}): Promise<string> {
    const key = kid === undefined ? this.#keys[this.#keys.length - 1] : this.#keys.find((each) => each.kid === kid);
    if (key === undefined) throw new Error(`no key ${kid}`);
    return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid: key.kid }).setIssuer(ISSUER).setAudience(AUDIENCE).setIssuedAt().setExpirationTime(expiresIn).sign(key.privateKey);
  }

  async stop(): Promise<void> {
    const server = this.#server;
    if (server === null) return;
    this.#server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  async #addKey(): Promise<void> {
    const kid = `key-${this.#keys.length + 1}`;
    const { privateKey, publicKey } = await generateKeyPair('ES256');
    this.#keys.push({ kid, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' } });
  }
}
