// The `rateLimit` option at work, with rate-limiter-flexible: one budget of points per caller and window, in this
// process's memory or in Redis (shared by workers and replicas), spent by each action route at its cost. Answers
// carry the IETF draft's `RateLimit` and `RateLimit-Policy` fields; a caller over budget gets 429 RATE_LIMITED with
// `Retry-After`. A store that fails lets calls through (fail open), logged once a minute: never a 500.
import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { SetupError, TesseraError } from '../errors';
import { DEFAULT_KEY_PREFIX, type RateLimitOptions, type RouteCost } from './rate-limit-options';

/** A store failure is logged at most this often (and the calls it lets through are never refused). */
export const FAIL_OPEN_LOG_INTERVAL_MS = 60_000;
/** draft-ietf-httpapi-ratelimit-headers-11: the policy's name in both fields. */
const POLICY = '"default"';
/** What the client of a redis:// URL gives up after: a store that does not answer lets the call through. */
const REDIS_COMMAND_TIMEOUT_MS = 500;

type KeyOf = (req: Request) => string;

const BEARER_TOKEN = /^Bearer +(\S+)/i;

function ipKey(req: Request): string {
  return `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
}

/** The caller's key, per `by`, resolved once. Tokens are hashed: a store never holds a credential. */
function keyFunction(by: RateLimitOptions['by'], hasAuth: boolean): KeyOf {
  const chosen = by ?? (hasAuth ? { claim: 'sub' } : 'ip');
  if (chosen === 'ip') return ipKey;
  if (chosen === 'token') {
    return (req) => {
      const token = BEARER_TOKEN.exec(req.headers.authorization ?? '');
      return token === null ? ipKey(req) : `token:${createHash('sha256').update(token[1]).digest('base64url').slice(0, 32)}`;
    };
  }
  if (typeof chosen === 'function') {
    return (req) => {
      const key = chosen(req);
      return typeof key === 'string' && key !== '' ? `key:${key}` : ipKey(req);
    };
  }
  const { claim } = chosen;
  return (req) => {
    const value = (req as { auth?: Record<string, unknown> }).auth?.[claim];
    return typeof value === 'string' || typeof value === 'number' ? `claim:${value}` : ipKey(req);
  };
}

/**
 * A Redis client of a redis:// URL: commands wait for the first connection while it is being made, but not once it
 * has failed, nor for a lost one (each would wait out the command timeout: calls pass unlimited at once instead).
 */
function connectRedis(url: string): { client: object; disconnect(): void } {
  let Redis: new (url: string, options: object) => { on(event: string, listener: (...args: any[]) => void): unknown; once(event: string, listener: () => void): unknown; options: { enableOfflineQueue: boolean }; disconnect(): void };
  try {
    Redis = require('ioredis');
  } catch {
    throw new SetupError('rateLimit.redis: a redis:// URL needs the ioredis package (npm install ioredis)');
  }
  const client = new Redis(url, { enableOfflineQueue: true, maxRetriesPerRequest: 0, commandTimeout: REDIS_COMMAND_TIMEOUT_MS });
  client.on('error', () => undefined); // reported by the limiter's own log line, once a minute
  const failFast = () => (client.options.enableOfflineQueue = false);
  client.once('ready', failFast);
  client.once('error', failFast);
  return { client, disconnect: () => client.disconnect() };
}

/** The failure's class and code, or its first line without a code (a Redis client's, such as `Command timed out`). */
function describeFailure(error: unknown): string {
  const { name, code, message } = (error ?? {}) as { name?: unknown; code?: unknown; message?: unknown };
  const detail = code !== undefined ? String(code) : typeof message === 'string' ? message.split('\n', 1)[0].slice(0, 120) : '';
  return `${typeof name === 'string' ? name : 'Error'}${detail === '' ? '' : ` (${detail})`}`;
}

/** One budget per caller, shared by the action routes of one application. */
export class RateLimit {
  readonly #limiter: RateLimiterAbstract;
  readonly #keyOf: KeyOf;
  readonly #policy: string;
  readonly #errorLog: ((message: string) => void) | null;
  readonly #disconnect: (() => void) | null;
  #lastFailureLog = Number.NEGATIVE_INFINITY;

  constructor(option: RateLimitOptions, hasAuth: boolean, errorLog: ((message: string) => void) | null) {
    const settings = { points: option.points, duration: option.duration, keyPrefix: option.keyPrefix ?? DEFAULT_KEY_PREFIX };
    this.#keyOf = keyFunction(option.by, hasAuth);
    this.#policy = `${POLICY};q=${option.points};w=${option.duration}`;
    this.#errorLog = errorLog;
    if (option.redis === undefined) {
      this.#limiter = new RateLimiterMemory(settings);
      this.#disconnect = null;
    } else {
      const redis = typeof option.redis === 'string' ? connectRedis(option.redis) : { client: option.redis, disconnect: null };
      this.#limiter = new RateLimiterRedis({ ...settings, storeClient: redis.client });
      this.#disconnect = redis.disconnect;
    }
  }

  /** The route's middleware, after its body is read (a list's `includeTotal` costs more). */
  layer({ cost, includeTotal }: RouteCost): RequestHandler {
    return (req, res, next) => {
      const points = includeTotal > 0 && (req.body as { includeTotal?: unknown } | undefined)?.includeTotal === true ? cost + includeTotal : cost;
      this.#limiter.consume(this.#keyOf(req), points).then(
        (result) => {
          this.#setHeaders(res, result);
          next();
        },
        (refusal: unknown) => {
          if (!(refusal instanceof RateLimiterRes)) return next(this.#storeFailed(refusal));
          const seconds = this.#setHeaders(res, refusal);
          res.setHeader('Retry-After', String(seconds));
          next(new TesseraError('RATE_LIMITED', `rate limit exceeded: retry after ${seconds} s`));
        },
      );
    };
  }

  /** Disconnects the Redis client Tessera made for a redis:// URL (app.close()). */
  close(): void {
    this.#disconnect?.();
  }

  /** draft-ietf-httpapi-ratelimit-headers-11's fields; answers the seconds until the window resets (at least 1). */
  #setHeaders(res: Response, result: RateLimiterRes): number {
    const seconds = Math.max(1, Math.ceil(result.msBeforeNext / 1000));
    res.setHeader('RateLimit-Policy', this.#policy);
    res.setHeader('RateLimit', `${POLICY};r=${result.remainingPoints};t=${seconds}`);
    return seconds;
  }

  /** Fail open: the call goes on unlimited; one line a minute says so. */
  #storeFailed(error: unknown): undefined {
    const now = Date.now();
    if (this.#errorLog !== null && now - this.#lastFailureLog >= FAIL_OPEN_LOG_INTERVAL_MS) {
      this.#lastFailureLog = now;
      this.#errorLog(`RATE_LIMIT_STORE_UNAVAILABLE: ${describeFailure(error)}; calls pass without a rate limit until the store answers (logged once a minute)`);
    }
    return undefined;
  }
}
