// Operations over every declared secret (spec §8.1): the boot check createServer runs, the value-free
// listing, and the test helpers that set a value by name and reset the registry.
import { SetupError } from '../errors';
import { SecretError, secretProblem, type SecretProblem } from './secret-error';
import { declaredSecrets, clearDeclaredSecrets } from './secret';
import { checkSecretName, clearOverrides, setOverride, type SecretSource } from './secret-source';

/** What `listSecrets()` tells about one secret: metadata only, never its value. */
export interface SecretInfo {
  readonly name: string;
  /** True when `.default()` made the secret optional. */
  readonly hasDefault: boolean;
  /** True when an override or the source holds a non-empty value (the default does not count). */
  readonly isSet: boolean;
}

/**
 * Reads every declared secret and runs its transforms and checks. Throws one SecretError listing every
 * required secret that is not set and every secret whose value is invalid, in declaration order.
 * `createServer()` calls it at construction unless `secrets.validate` is false.
 *
 * @example
 * secret('DATABASE_URL').url();
 * secret('SESSION_KEY');
 * resolveSecrets({ DATABASE_URL: 'postgres://db/app' }); // throws: secret SESSION_KEY is not set
 */
export function resolveSecrets(source?: SecretSource): void {
  const problems: SecretProblem[] = [];
  for (const reference of declaredSecrets()) {
    const reading = reference.inspect(source);
    if (reading.status === 'missing') problems.push(secretProblem(reference.name, 'missing', 'is not set'));
    else if (reading.status === 'invalid') problems.push(secretProblem(reference.name, 'invalid', reading.rule));
  }
  if (problems.length > 0) throw new SecretError(problems);
}

/**
 * Every declared secret in declaration order, as `{ name, hasDefault, isSet }`. Values are never read
 * into the result, so it is safe to log or serve.
 *
 * @example
 * for (const { name, isSet } of listSecrets()) console.log(`${name}: ${isSet ? 'set' : 'not set'}`);
 */
export function listSecrets(source?: SecretSource): SecretInfo[] {
  return declaredSecrets().map((reference) =>
    Object.freeze({ name: reference.name, hasDefault: reference.hasDefault, isSet: reference.isSet(source) }),
  );
}

/**
 * For tests: makes a secret read as `value` whatever the source says, without touching process.env.
 * The name need not be declared yet. An empty string makes the secret read as unset.
 *
 * @example
 * beforeEach(() => overrideSecret('DATABASE_URL', 'postgres://127.0.0.1/test'));
 * afterEach(() => resetSecrets());
 */
export function overrideSecret(name: string, value: string): void {
  checkSecretName(name, 'overrideSecret()');
  if (typeof value !== 'string') throw new SetupError(`overrideSecret(): the value of secret ${name} must be a string`);
  setOverride(name, value);
}

/**
 * For tests: drops every override and empties the secret registry, so modules may declare their secrets
 * again. References already held keep working; they are no longer checked by resolveSecrets.
 *
 * @example
 * afterEach(() => resetSecrets());
 */
export function resetSecrets(): void {
  clearOverrides();
  clearDeclaredSecrets();
}
