// A secret reference (spec §8.1): a name, an optional default and a chain of transforms and checks, read
// from process.env or a custom source only when asked. Declaring one registers it for resolveSecrets.
import { SetupError } from '../errors';
import { SecretError, secretProblem } from './secret-error';
import { checkSecretName, readRaw, type SecretSource } from './secret-source';

type Step =
  | { readonly kind: 'transform'; readonly fn: (value: any) => unknown }
  | { readonly kind: 'check'; readonly fn: (value: any) => unknown; readonly rule: string };

/** @internal What reading a secret found. `absent`: unset, made optional by `.default(undefined)`. */
export type SecretReading<T> =
  | { readonly status: 'missing' | 'absent' }
  | { readonly status: 'ok'; readonly value: T }
  | { readonly status: 'invalid'; readonly rule: string };

/** `null`: no default, so the secret is required. `{ value: undefined }`: optional, without a value. */
type Fallback = { readonly value: string | undefined } | null;

// Declaration order is the order resolveSecrets reports in; each name maps to the registered link of its chain.
const declared = new Map<string, Secret<unknown, boolean>>();
const MISSING: SecretReading<never> = Object.freeze({ status: 'missing' });
const ABSENT: SecretReading<never> = Object.freeze({ status: 'absent' });

/** Runs one step: the new value, or the rule it broke. What a user function throws is dropped on purpose: its message may quote the value. */
function runStep(step: Step, value: unknown): { value: unknown } | string {
  try {
    if (step.kind === 'transform') return { value: step.fn(value) };
    return step.fn(value) === false ? step.rule : { value };
  } catch {
    return step.kind === 'transform' ? 'could not be transformed (the transform threw)' : step.rule;
  }
}

function checkFunction(name: string, method: string, fn: unknown): void {
  if (typeof fn !== 'function') throw new SetupError(`secret ${name}: .${method}() takes a function`);
}

/**
 * A reference to a secret, declared with `secret(name)`. Every method returns a new reference; reading
 * (`value`, `require`, `isSet`) happens at each call, from the source given or process.env.
 */
export class Secret<T = string, TDefaulted extends boolean = false> {
  readonly name: string;
  readonly #fallback: Fallback;
  readonly #steps: readonly Step[];

  /** @internal Use `secret(name)`. */
  constructor(name: string, fallback: Fallback, steps: readonly Step[]) {
    this.name = name;
    this.#fallback = fallback;
    this.#steps = Object.freeze(steps);
    Object.freeze(this);
  }

  /** True once `.default()` made the secret optional (including `.default(undefined)`). */
  get hasDefault(): boolean {
    return this.#fallback !== null;
  }

  /**
   * Makes the secret optional. The default is a raw string used as if the source held it, so transforms and
   * checks run over it too; `undefined` makes the secret optional without a value.
   *
   * @example
   * const port = secret('PORT').default('4000').transform(Number);
   */
  default(value: string): Secret<T, true>;
  default(value: undefined): Secret<T, false>;
  default(value: string | undefined): Secret<T, boolean> {
    if (this.#fallback !== null) throw new SetupError(`secret ${this.name}: .default() is given twice`);
    if (value !== undefined && (typeof value !== 'string' || value === '')) {
      throw new SetupError(`secret ${this.name}: .default() takes a non-empty string, or undefined for an optional secret without a value`);
    }
    return this.#extend({ value }, this.#steps);
  }

  /**
   * Converts the value; runs after the steps chained before it. A transform that throws makes the secret invalid.
   *
   * @example
   * const timeoutMs = secret('TIMEOUT_MS').default('5000').transform(Number);
   */
  transform<U>(fn: (value: T) => U): Secret<U, TDefaulted> {
    checkFunction(this.name, 'transform', fn);
    return this.#extend(this.#fallback, [...this.#steps, { kind: 'transform', fn }]);
  }

  /**
   * Checks the value as the steps chained before it left it. Returning `false` or throwing makes the secret
   * invalid; `rule` is what the error says ("secret SESSION_KEY must be at least 32 characters").
   *
   * @example
   * const sessionKey = secret('SESSION_KEY').validate((key) => key.length >= 32, 'must be at least 32 characters');
   */
  validate(check: (value: T) => boolean | void, rule = 'failed validation'): Secret<T, TDefaulted> {
    checkFunction(this.name, 'validate', check);
    if (typeof rule !== 'string' || !/^[^\r\n]+$/.test(rule)) throw new SetupError(`secret ${this.name}: a .validate() rule is one line of text`);
    return this.#extend(this.#fallback, [...this.#steps, { kind: 'check', fn: check, rule }]);
  }

  /**
   * Checks that the value is an absolute URL, as WHATWG `URL` parses it without a base. The value stays a string.
   *
   * @example
   * const databaseUrl = secret('DATABASE_URL').url();
   */
  url(this: Secret<string, TDefaulted>): Secret<string, TDefaulted> {
    return this.validate((value) => typeof value === 'string' && URL.canParse(value), 'is not a valid URL');
  }

  /**
   * The value, or undefined when unset (never undefined with a string default). Throws a SecretError when
   * the value is set but invalid.
   *
   * @example
   * const sentryDsn = secret('SENTRY_DSN').default(undefined).url();
   * if (sentryDsn.value() !== undefined) Sentry.init({ dsn: sentryDsn.value() });
   */
  value(source?: SecretSource): TDefaulted extends true ? T : T | undefined {
    const reading = this.inspect(source);
    if (reading.status === 'invalid') throw new SecretError([secretProblem(this.name, 'invalid', reading.rule)]);
    return (reading.status === 'ok' ? reading.value : undefined) as TDefaulted extends true ? T : T | undefined;
  }

  /**
   * The value; throws a SecretError when it is unset or invalid.
   *
   * @example
   * const databaseUrl = secret('DATABASE_URL').url();
   * const pool = new Pool({ connectionString: databaseUrl.require() });
   */
  require(source?: SecretSource): T {
    const reading = this.inspect(source);
    if (reading.status === 'ok') return reading.value;
    const problem = reading.status === 'invalid' ? secretProblem(this.name, 'invalid', reading.rule) : secretProblem(this.name, 'missing', 'is not set');
    throw new SecretError([problem]);
  }

  /**
   * Whether an override or the source holds a non-empty value; the default does not count and nothing is checked.
   *
   * @example
   * const smtpUrl = secret('SMTP_URL').default(undefined).url();
   * if (smtpUrl.isSet()) startMailer(smtpUrl.require());
   */
  isSet(source?: SecretSource): boolean {
    return readRaw(this.name, source) !== undefined;
  }

  /** @internal Reads and runs the chain without throwing, so resolveSecrets can collect every problem. */
  inspect(source?: SecretSource): SecretReading<T> {
    let raw = readRaw(this.name, source);
    if (raw === undefined) {
      if (this.#fallback === null) return MISSING;
      if (this.#fallback.value === undefined) return ABSENT;
      raw = this.#fallback.value;
    }
    let value: unknown = raw;
    for (const step of this.#steps) {
      const result = runStep(step, value);
      if (typeof result === 'string') return { status: 'invalid', rule: result };
      value = result.value;
    }
    return { status: 'ok', value: value as T };
  }

  #extend(fallback: Fallback, steps: readonly Step[]): Secret<any, any> {
    const next = new Secret(this.name, fallback, steps);
    // The registry follows the declaration chain; a branch off an earlier link is not registered.
    if (declared.get(this.name) === this) declared.set(this.name, next);
    return next;
  }
}

/**
 * Declares a secret by name and registers it. Without `.default()` it is required. Declaring a name that is
 * already declared throws: import the existing reference instead (`resetSecrets()` empties the registry).
 *
 * @example
 * export const databaseUrl = secret('DATABASE_URL').url();
 * const client = new pg.Client(databaseUrl.require());
 */
export function secret(name: string): Secret {
  checkSecretName(name, 'secret()');
  if (declared.has(name)) throw new SetupError(`secret ${name} is already declared; import the existing reference instead`);
  const reference = new Secret(name, null, []);
  declared.set(name, reference);
  return reference;
}

/** @internal Every declared secret, in declaration order. */
export function declaredSecrets(): Secret<unknown, boolean>[] {
  return [...declared.values()];
}

/** @internal Used by resetSecrets. */
export function clearDeclaredSecrets(): void {
  declared.clear();
}
