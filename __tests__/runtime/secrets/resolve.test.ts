// The registry-wide secret functions (spec §8.1): resolveSecrets reporting every problem in one error,
// listSecrets without values, overrideSecret without touching process.env, and resetSecrets.
import { listSecrets, overrideSecret, resetSecrets, resolveSecrets, secret, SecretError } from 'tessera-api';

const ENV_NAME = 'TESSERA_TEST_SECRET_RESOLVE';

afterEach(() => {
  resetSecrets();
  delete process.env[ENV_NAME];
});

function resolveError(source?: Parameters<typeof resolveSecrets>[0]): SecretError {
  try {
    resolveSecrets(source);
  } catch (error) {
    return error as SecretError;
  }
  throw new Error('expected resolveSecrets to throw');
}

describe('resolveSecrets()', () => {
  it('throws one SecretError listing every missing required secret and every invalid one, in declaration order', () => {
    secret('DATABASE_URL').url();
    secret('REGION').default('eu-west-1');
    secret('SESSION_KEY');
    secret('HOOK_URL').url();
    secret('API_TOKEN');
    const error = resolveError({ HOOK_URL: 'nope' });
    expect(error).toBeInstanceOf(SecretError);
    expect(error.names).toEqual(['DATABASE_URL', 'SESSION_KEY', 'HOOK_URL', 'API_TOKEN']);
    expect(error.problems.map((problem) => problem.reason)).toEqual(['missing', 'missing', 'invalid', 'missing']);
    expect(error.message).toBe(
      '4 secrets are missing or invalid: secret DATABASE_URL is not set; secret SESSION_KEY is not set; ' +
        'secret HOOK_URL is not a valid URL; secret API_TOKEN is not set',
    );
  });

  it('returns quietly when every required secret is set and valid', () => {
    secret('DATABASE_URL').url();
    secret('REGION').default('eu-west-1');
    expect(resolveSecrets({ DATABASE_URL: 'postgres://db/app' })).toBeUndefined();
  });

  it('reads process.env without a source, and a function source when given one', () => {
    secret(ENV_NAME);
    expect(resolveError().names).toEqual([ENV_NAME]);
    process.env[ENV_NAME] = 'set';
    expect(() => resolveSecrets()).not.toThrow();
    expect(resolveError(() => undefined).names).toEqual([ENV_NAME]);
  });

  it('reports an invalid default too', () => {
    secret('PORT').default('eighty').transform(Number).validate(Number.isInteger, 'must be an integer');
    expect(resolveError({}).problems).toEqual([{ name: 'PORT', reason: 'invalid', message: 'secret PORT must be an integer' }]);
  });
});

describe('listSecrets()', () => {
  it('answers { name, hasDefault, isSet } per declared secret and nothing else', () => {
    secret('DATABASE_URL').url();
    secret('REGION').default('eu-west-1');
    secret('TOKEN');
    const listed = listSecrets({ TOKEN: 'value-not-listed' });
    expect(listed).toEqual([
      { name: 'DATABASE_URL', hasDefault: false, isSet: false },
      { name: 'REGION', hasDefault: true, isSet: false },
      { name: 'TOKEN', hasDefault: false, isSet: true },
    ]);
    expect(JSON.stringify(listed)).not.toContain('value-not-listed');
    expect(JSON.stringify(listed)).not.toContain('eu-west-1');
  });

  it('reads process.env and overrides without a source', () => {
    secret(ENV_NAME);
    secret('OVERRIDDEN');
    process.env[ENV_NAME] = 'x';
    overrideSecret('OVERRIDDEN', 'y');
    expect(listSecrets().map((info) => info.isSet)).toEqual([true, true]);
  });
});

describe('overrideSecret()', () => {
  it('sets a value by name without changing process.env', () => {
    const reference = secret(ENV_NAME);
    overrideSecret(ENV_NAME, 'overridden');
    expect(reference.require()).toBe('overridden');
    expect(process.env[ENV_NAME]).toBeUndefined();
  });

  it('wins over process.env and over a given source', () => {
    const reference = secret(ENV_NAME);
    process.env[ENV_NAME] = 'from-env';
    overrideSecret(ENV_NAME, 'overridden');
    expect(reference.value()).toBe('overridden');
    expect(reference.value({ [ENV_NAME]: 'from-object' })).toBe('overridden');
    expect(reference.value(() => 'from-function')).toBe('overridden');
    expect(process.env[ENV_NAME]).toBe('from-env');
  });

  it('works for a name declared later, and an empty string makes the secret read as unset', () => {
    overrideSecret('LATER', 'early');
    expect(secret('LATER').require({})).toBe('early');
    overrideSecret('MASKED', '');
    expect(secret('MASKED').isSet({ MASKED: 'in-source' })).toBe(false);
  });

  it('refuses a value that is not a string', () => {
    expect(() => overrideSecret('PORT', 4000 as never)).toThrow('overrideSecret(): the value of secret PORT must be a string');
  });
});

describe('resetSecrets()', () => {
  it('clears every override and the registry, so names can be declared again', () => {
    const first = secret('TOKEN');
    overrideSecret('TOKEN', 'overridden');
    resetSecrets();
    expect(listSecrets()).toEqual([]);
    expect(first.value({})).toBeUndefined();
    expect(() => resolveSecrets({})).not.toThrow();
    const again = secret('TOKEN');
    expect(again.value({ TOKEN: 'source' })).toBe('source');
  });

  it('leaves a reference held from before the reset out of the new registry', () => {
    const stale = secret('TOKEN');
    resetSecrets();
    stale.url();
    expect(listSecrets()).toEqual([]);
  });
});
