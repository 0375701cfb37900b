// The error a missing or invalid secret throws (spec §7, §8.1). It names each secret and the rule it
// broke, never the value, so the CLI's one line, the server log and a JSON dump of it are all safe to show.
import { SetupError } from '../errors';

/** One secret that could not be read: which one, why, and the sentence saying so. */
export interface SecretProblem {
  readonly name: string;
  /** `missing`: not set and no default. `invalid`: set (or defaulted) but a transform or check refused it. */
  readonly reason: 'missing' | 'invalid';
  /** `secret DATABASE_URL is not a valid URL`: the name and the rule, never the value. */
  readonly message: string;
}

/** @internal Builds a problem; `rule` is our wording or the user's declared rule text, never derived from the value. */
export function secretProblem(name: string, reason: SecretProblem['reason'], rule: string): SecretProblem {
  return Object.freeze({ name, reason, message: `secret ${name} ${rule}` });
}

/**
 * Thrown by `.value()`/`.require()` for one secret, and by `resolveSecrets()` and `createServer()` once for
 * every missing or invalid secret together. A `SetupError`: it is a boot-time configuration mistake.
 *
 * @example
 * try {
 *   resolveSecrets();
 * } catch (error) {
 *   if (error instanceof SecretError) console.error(`set these secrets: ${error.names.join(', ')}`);
 *   throw error;
 * }
 */
export class SecretError extends SetupError {
  /** The secrets at fault, in declaration order. */
  readonly names: readonly string[];
  readonly problems: readonly SecretProblem[];

  constructor(problems: readonly SecretProblem[]) {
    // One line whatever the count: the CLI prints the first line only.
    super(
      problems.length === 1
        ? problems[0].message
        : `${problems.length} secrets are missing or invalid: ${problems.map((problem) => problem.message).join('; ')}`,
    );
    this.name = 'SecretError';
    this.problems = Object.freeze([...problems]);
    this.names = Object.freeze(problems.map((problem) => problem.name));
  }
}
