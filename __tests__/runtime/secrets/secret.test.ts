// Secret references (spec §8.1, CONTRACT §6): declaring by name, required versus defaulted, and the
// readers value/require/isSet against process.env, an object source and a function source.
import { listSecrets, resetSecrets, secret, SecretError, SetupError } from 'tessera-api';

const ENV_NAME = 'TESSERA_TEST_SECRET_READERS';

afterEach(() => {
  resetSecrets();
  delete process.env[ENV_NAME];
});

describe('secret(name)', () => {
  it('returns a reference carrying the name and registers it', () => {
    const apiKey = secret('API_KEY');
    expect(apiKey.name).toBe('API_KEY');
    expect(listSecrets().map((info) => info.name)).toEqual(['API_KEY']);
  });

  it('throws a SetupError when the same name is declared twice', () => {
    secret('API_KEY');
    expect(() => secret('API_KEY')).toThrow(SetupError);
    expect(() => secret('API_KEY')).toThrow('secret API_KEY is already declared; import the existing reference instead');
  });

  it('refuses a name that is empty or holds spaces', () => {
    for (const name of ['', 'API KEY', 'API\nKEY', 42 as unknown as string]) {
      expect(() => secret(name)).toThrow(/a secret name must be a non-empty string/);
    }
    expect(listSecrets()).toEqual([]);
  });

  it('is required without a default and optional with one', () => {
    expect(secret('REQUIRED').hasDefault).toBe(false);
    expect(secret('OPTIONAL').default('x').hasDefault).toBe(true);
    expect(() => secret('NEEDED').require({})).toThrow('secret NEEDED is not set');
  });
});

describe('Secret.value()', () => {
  it('reads process.env by default, at each call', () => {
    const reference = secret(ENV_NAME);
    expect(reference.value()).toBeUndefined();
    process.env[ENV_NAME] = 'from-env';
    expect(reference.value()).toBe('from-env');
    process.env[ENV_NAME] = 'changed';
    expect(reference.value()).toBe('changed');
  });

  it('reads an object source instead of process.env when given one', () => {
    process.env[ENV_NAME] = 'from-env';
    const reference = secret(ENV_NAME);
    expect(reference.value({ [ENV_NAME]: 'from-object' })).toBe('from-object');
    expect(reference.value({})).toBeUndefined();
  });

  it('asks a function source for the name', () => {
    const asked: string[] = [];
    const source = (name: string) => {
      asked.push(name);
      return name === 'TOKEN' ? 'from-function' : undefined;
    };
    expect(secret('TOKEN').value(source)).toBe('from-function');
    expect(secret('OTHER').value(source)).toBeUndefined();
    expect(asked).toEqual(['TOKEN', 'OTHER']);
  });

  it('reads only own keys of an object source, never inherited ones', () => {
    expect(secret('constructor').value({})).toBeUndefined();
    expect(secret('toString').isSet({})).toBe(false);
  });

  it('treats an empty string as unset, so the default applies', () => {
    expect(secret('EMPTY').value({ EMPTY: '' })).toBeUndefined();
    expect(secret('EMPTY_DEFAULTED').default('fallback').value({ EMPTY_DEFAULTED: '' })).toBe('fallback');
  });

  it('returns the default when unset, and the source value over the default when set', () => {
    const region = secret('REGION').default('eu-west-1');
    expect(region.value({})).toBe('eu-west-1');
    expect(region.value({ REGION: 'us-east-2' })).toBe('us-east-2');
  });

  it('throws a SecretError naming the rule when the value is set but invalid', () => {
    const endpoint = secret('ENDPOINT').url();
    expect(() => endpoint.value({ ENDPOINT: 'not a url' })).toThrow(SecretError);
    expect(() => endpoint.value({ ENDPOINT: 'not a url' })).toThrow('secret ENDPOINT is not a valid URL');
  });

  it('refuses a source that is neither an object nor a function', () => {
    expect(() => secret('ODD').value(42 as never)).toThrow(/a secret source must be an object of strings or a function/);
  });
});

describe('Secret.require()', () => {
  it('returns the value when set, from either kind of source', () => {
    const token = secret('TOKEN');
    expect(token.require({ TOKEN: 'abc' })).toBe('abc');
    expect(token.require(() => 'def')).toBe('def');
  });

  it('throws a SecretError with reason missing when a required secret is unset', () => {
    const error = captureError(() => secret('TOKEN').require({}));
    expect(error).toBeInstanceOf(SecretError);
    expect(error).toBeInstanceOf(SetupError);
    expect(error.message).toBe('secret TOKEN is not set');
    expect(error.names).toEqual(['TOKEN']);
    expect(error.problems).toEqual([{ name: 'TOKEN', reason: 'missing', message: 'secret TOKEN is not set' }]);
  });

  it('throws with reason invalid when a check refuses the value', () => {
    const error = captureError(() => secret('HOOK_URL').url().require({ HOOK_URL: 'nope' }));
    expect(error.problems).toEqual([{ name: 'HOOK_URL', reason: 'invalid', message: 'secret HOOK_URL is not a valid URL' }]);
  });

  it('returns the default of an optional secret and throws for one made optional without a value', () => {
    expect(secret('LEVEL').default('info').require({})).toBe('info');
    expect(() => secret('DSN').default(undefined).require({})).toThrow('secret DSN is not set');
  });
});

describe('Secret.isSet()', () => {
  it('is true only when the source holds a non-empty value; the default does not count', () => {
    const level = secret('LEVEL').default('info');
    expect(level.isSet({})).toBe(false);
    expect(level.isSet({ LEVEL: '' })).toBe(false);
    expect(level.isSet({ LEVEL: 'debug' })).toBe(true);
    expect(level.isSet(() => 'debug')).toBe(true);
  });

  it('reads process.env without a source and runs no check', () => {
    const endpoint = secret(ENV_NAME).url();
    expect(endpoint.isSet()).toBe(false);
    process.env[ENV_NAME] = 'not a url';
    expect(endpoint.isSet()).toBe(true);
  });
});

function captureError(run: () => unknown): SecretError {
  try {
    run();
  } catch (error) {
    return error as SecretError;
  }
  throw new Error('expected a throw');
}
