// Every key createServer takes, as a table TypeScript holds to ServerOptions, so that an unknown key (`titel`) is a
// SetupError naming it, in createServer and in `tessera start`, `dev` and `build`, never silently ignored; and the
// types of the plain options, which `tessera start` (no type check) would otherwise pass on to fail later, or not.
import { SetupError } from '../errors';
import type { ServerOptions } from './server-options';

/** @internal One entry per option of ServerOptions: adding an option there without adding it here does not compile. */
export const SERVER_OPTION_KEYS: { readonly [key in keyof Required<ServerOptions>]: true } = {
  port: true,
  prefix: true,
  services: true,
  title: true,
  version: true,
  description: true,
  license: true,
  contact: true,
  docs: true,
  openApiPath: true,
  docsPath: true,
  swaggerPath: true,
  requestLogging: true,
  errorLogger: true,
  headersTimeout: true,
  requestTimeout: true,
  keepAliveTimeout: true,
  shutdownGracePeriod: true,
  reference: true,
  compiler: true,
  statementCache: true,
  compilation: true,
  secrets: true,
  endpoints: true,
  dashboard: true,
  documentation: true,
  security: true,
  context: true,
  bodyLimit: true,
  trustProxy: true,
  cursorSecret: true,
  auth: true,
  cors: true,
  rateLimit: true,
  requestId: true,
};

const NAMES = Object.keys(SERVER_OPTION_KEYS);

/** Throws a SetupError naming the first key of `options` that is not a server option, with the option it resembles. */
export function checkServerOptionKeys(options: object): void {
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(SERVER_OPTION_KEYS, key)) continue;
    const near = closestName(key, NAMES);
    throw new SetupError(`${key} is not a server option (${near === undefined ? 'see docs/server-options.md' : `did you mean ${near}?`})`);
  }
}

/** The plain options by the type they take (the others are checked where they are resolved). */
const STRING_OPTIONS = ['title', 'version', 'description'] as const;
const BOOLEAN_OPTIONS = ['docs', 'compiler', 'statementCache'] as const;
/** What body-parser reads as a size: bytes, or a number with a unit (`'1mb'`, `'500 kb'`). */
const SIZE = /^\d+(\.\d+)? *(b|kb|mb|gb|tb|pb)?$/i;

/** Throws a SetupError naming the first plain option given a value of the wrong type (`title: 42`). */
export function checkServerOptionTypes(options: ServerOptions): void {
  const wrong = (key: string, expected: string, value: unknown) => new SetupError(`${key} must be ${expected}, got ${JSON.stringify(value) ?? String(value)}`);
  for (const key of STRING_OPTIONS) if (options[key] !== undefined && typeof options[key] !== 'string') throw wrong(key, 'a string', options[key]);
  for (const key of BOOLEAN_OPTIONS) if (options[key] !== undefined && typeof options[key] !== 'boolean') throw wrong(key, 'true or false', options[key]);
  const { bodyLimit } = options;
  const isSize = typeof bodyLimit === 'number' ? Number.isSafeInteger(bodyLimit) && bodyLimit > 0 : typeof bodyLimit === 'string' && SIZE.test(bodyLimit.trim());
  if (bodyLimit !== undefined && !isSize) throw wrong('bodyLimit', "a number of bytes or a size such as '1mb'", bodyLimit);
  const { trustProxy } = options;
  const isAddresses = (value: unknown) => typeof value === 'string' && value.trim() !== '';
  const isTrust = typeof trustProxy === 'boolean' || (typeof trustProxy === 'number' && Number.isSafeInteger(trustProxy) && trustProxy >= 0) || isAddresses(trustProxy) || (Array.isArray(trustProxy) && trustProxy.length > 0 && trustProxy.every(isAddresses));
  if (trustProxy !== undefined && !isTrust) throw wrong('trustProxy', "true or false, a number of proxies, or addresses and subnets ('loopback', '10.0.0.0/8', a list)", trustProxy);
}

/** The name `key` is a likely typo of: the same but for letter case, or at most two edits away (one for short keys). */
function closestName(key: string, names: readonly string[]): string | undefined {
  const lower = key.toLowerCase();
  const limit = key.length <= 4 ? 1 : 2;
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = name.toLowerCase() === lower ? 0 : editDistance(lower, name.toLowerCase());
    if (distance <= limit && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Levenshtein distance, adjacent transpositions counting one (`titel` → `title`). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      rows[i][j] = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) rows[i][j] = Math.min(rows[i][j], rows[i - 2][j - 2] + 1);
    }
  }
  return rows[a.length][b.length];
}
