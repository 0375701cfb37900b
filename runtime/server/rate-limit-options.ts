// The `rateLimit` server option, checked, and what each action route costs: a pure function of the option and
// the routes, so that createServer, the OpenAPI document (429 on limited operations) and `tessera build` agree.
import type { Request } from 'express';
import { CRUD_ACTION_NAMES } from '../actions';
import { SetupError } from '../errors';
import { routeKey, type MountedRoute } from '../model/action-routes';

/** Who a caller is, for counting: the client address, the bearer token, a verified claim, or your own key. */
export type RateLimitKey = 'ip' | 'token' | { claim: string } | ((req: Request) => string | undefined);

/** The `rateLimit` server option: `points` per caller every `duration` seconds, each call costing its operation's weight. */
export interface RateLimitOptions {
  /** Points a caller may spend per window. */
  points: number;
  /** The window, in whole seconds. */
  duration: number;
  /**
   * Who a caller is. Default: with `auth`, the `sub` claim of a verified token (`{ claim: 'sub' }`); otherwise
   * `'ip'` (`req.ip`: set Express's `trust proxy` behind a proxy). A request without the chosen key counts by IP.
   */
  by?: RateLimitKey;
  /**
   * What a call costs, by crud action name (`count`, every resource), by operationId (`blog.notes.list`, a custom
   * action `blog.stats`; the operationId wins), and `includeTotal` (added to a list that asks for it). Default: 1
   * per call, `count` 5, `includeTotal` 4, each at most `points`. 0 leaves an operation unlimited.
   */
  costs?: Record<string, number>;
  /**
   * Counts in Redis, shared by `--workers` and replicas: a `redis://` URL (Tessera connects with ioredis, which the
   * application installs, and disconnects on app.close()) or an ioredis client of yours. Default: this process's memory.
   */
  redis?: string | object;
  /** The prefix of the counters' keys in the store. Default `tessera:rl`. */
  keyPrefix?: string;
}

/** What one route costs: its points, and the points a list adds when it asks for `includeTotal`. */
export interface RouteCost {
  readonly cost: number;
  readonly includeTotal: number;
}

const OPTION_KEYS = ['points', 'duration', 'by', 'costs', 'redis', 'keyPrefix'];
export const DEFAULT_COSTS: Readonly<Record<string, number>> = Object.freeze({ count: 5, includeTotal: 4 });
export const DEFAULT_KEY_PREFIX = 'tessera:rl';

function isWholeNumber(value: unknown, minimum: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= minimum;
}

function checkKey(by: unknown): void {
  if (by === undefined || by === 'ip' || by === 'token' || typeof by === 'function') return;
  const claim = (by as { claim?: unknown } | null)?.claim;
  if (typeof by === 'object' && by !== null && Object.keys(by).length === 1 && typeof claim === 'string' && claim !== '') return;
  throw new SetupError(`rateLimit.by must be 'ip', 'token', { claim: '<name>' } or a function of the request`);
}

/** Checks the option (a SetupError names the first mistake); `hasAuth`: whether claims can be had. */
export function checkRateLimitOptions(option: RateLimitOptions, hasAuth: boolean): void {
  if (typeof option !== 'object' || option === null) throw new SetupError('rateLimit must be { points, duration, by?, costs?, redis?, keyPrefix? }');
  for (const key of Object.keys(option)) if (!OPTION_KEYS.includes(key)) throw new SetupError(`rateLimit.${key} is not a rateLimit option (${OPTION_KEYS.join(', ')})`);
  if (!isWholeNumber(option.points, 1)) throw new SetupError('rateLimit.points must be a whole number from 1');
  if (!isWholeNumber(option.duration, 1)) throw new SetupError('rateLimit.duration must be a whole number of seconds from 1');
  checkKey(option.by);
  if (typeof option.by === 'object' && !hasAuth) throw new SetupError('rateLimit.by: counting by a claim needs `auth` (the claims of a verified token)');
  if (option.redis !== undefined && typeof option.redis !== 'string' && (typeof option.redis !== 'object' || option.redis === null)) {
    throw new SetupError('rateLimit.redis must be a redis:// URL or an ioredis client');
  }
  if (typeof option.redis === 'string' && !/^rediss?:\/\//.test(option.redis)) throw new SetupError('rateLimit.redis must be a redis:// or rediss:// URL');
  if (option.keyPrefix !== undefined && (typeof option.keyPrefix !== 'string' || option.keyPrefix === '')) throw new SetupError('rateLimit.keyPrefix must be a non-empty string');
}

/**
 * Each route's cost in the same order as `routes`, null for a route that is not limited (cost 0, or no option).
 * A key of `costs` that names no crud action, no mounted operation and not `includeTotal` is a SetupError, and so
 * is a given cost that could never pass (above `points`); the default weights are capped at `points`.
 */
export function resolveRouteCosts(option: RateLimitOptions | undefined, routes: readonly MountedRoute[]): (RouteCost | null)[] {
  if (option === undefined) return routes.map(() => null);
  const given = option.costs ?? {};
  if (typeof given !== 'object' || given === null) throw new SetupError('rateLimit.costs must be an object of numbers');
  const operationIds = new Set(routes.map(routeKey));
  for (const [key, value] of Object.entries(given)) {
    const isKnown = key === 'includeTotal' || (CRUD_ACTION_NAMES as readonly string[]).includes(key) || operationIds.has(key);
    if (!isKnown) throw new SetupError(`rateLimit.costs["${key}"] names no crud action, mounted operation or includeTotal`);
    if (!isWholeNumber(value, 0)) throw new SetupError(`rateLimit.costs["${key}"] must be a whole number of points (0 or more)`);
  }
  // A default weight never exceeds the budget (with `points: 2` a count costs 2); a weight given above it is a mistake.
  const costs: Record<string, number> = { count: Math.min(DEFAULT_COSTS.count, option.points), ...given };
  return routes.map((mounted) => {
    const operationId = routeKey(mounted);
    const action = mounted.route.source.kind === 'crud' ? mounted.route.source.action : null;
    const cost = costs[operationId] ?? (action === null ? undefined : costs[action]) ?? 1;
    if (cost === 0) return null;
    const includeTotal = action !== 'list' ? 0 : (given.includeTotal ?? Math.max(0, Math.min(DEFAULT_COSTS.includeTotal, option.points - cost)));
    if (cost + includeTotal > option.points) {
      throw new SetupError(`rateLimit: ${operationId} costs ${cost + includeTotal} points${includeTotal > 0 ? ' with includeTotal' : ''}, more than the ${option.points} a caller has`);
    }
    return { cost, includeTotal };
  });
}
