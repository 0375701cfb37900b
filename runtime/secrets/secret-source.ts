// Where a secret's raw string comes from: a test override first, then the given source (an object of
// strings or a function), by default process.env. One function, so every reader applies the same rules.
import { SetupError } from '../errors';

/**
 * Where secrets are read from: an object of strings (`process.env` is one) or a function answering a
 * name's value, or undefined when it has none.
 */
export type SecretSource = Readonly<Record<string, string | undefined>> | ((name: string) => string | undefined);

// Module scope, keyed by name: overrides apply to every reader and never touch process.env (spec §8.1).
const overrides = new Map<string, string>();

/** @internal Names must print on one line in an error message. */
export function checkSecretName(name: unknown, where: string): asserts name is string {
  if (typeof name !== 'string' || !/^[^\s\p{Cc}]+$/u.test(name)) {
    throw new SetupError(`${where}: a secret name must be a non-empty string without spaces or control characters`);
  }
}

/** @internal Used by overrideSecret. */
export function setOverride(name: string, value: string): void {
  overrides.set(name, value);
}

/** @internal Used by resetSecrets. */
export function clearOverrides(): void {
  overrides.clear();
}

function readSource(name: string, source: SecretSource): unknown {
  if (typeof source === 'function') return source(name);
  // Own keys only: `secret('constructor')` must not read Object.prototype.constructor from `{}`.
  if (typeof source === 'object' && source !== null) return Object.hasOwn(source, name) ? source[name] : undefined;
  throw new SetupError(`secret ${name}: a secret source must be an object of strings or a function (name) => string | undefined`);
}

/**
 * @internal The raw string of a secret, or undefined when unset. An override wins over the source; the
 * source is read at every call (never cached), so a changed process.env is seen. Anything but a non-empty
 * string reads as unset: `FOO=` in a .env file means "not provided", and no credential is empty.
 */
export function readRaw(name: string, source: SecretSource = process.env): string | undefined {
  const value = overrides.has(name) ? overrides.get(name) : readSource(name, source);
  return typeof value === 'string' && value !== '' ? value : undefined;
}
