// The chainable methods of a secret reference (spec §8.1): .default, .transform, .validate and .url, the
// order they run in, and how a chain stays one registered declaration.
import { listSecrets, resetSecrets, resolveSecrets, secret, SetupError } from 'tessera-api';

afterEach(() => resetSecrets());

describe('Secret.default()', () => {
  it('feeds the default through the transforms and checks like a source value', () => {
    const port = secret('PORT').default('4000').transform(Number);
    expect(port.value({})).toBe(4000);
    const broken = secret('HOME_URL').url().default('not a url');
    expect(() => broken.value({})).toThrow('secret HOME_URL is not a valid URL');
  });

  it('makes a secret optional without a value when given undefined', () => {
    const dsn = secret('SENTRY_DSN').default(undefined).url();
    expect(dsn.hasDefault).toBe(true);
    expect(dsn.value({})).toBeUndefined();
    expect(dsn.value({ SENTRY_DSN: 'https://key@sentry.example/1' })).toBe('https://key@sentry.example/1');
    expect(() => resolveSecrets({})).not.toThrow();
  });

  it('refuses an empty default and a second default', () => {
    expect(() => secret('A').default('')).toThrow(SetupError);
    expect(() => secret('B').default('x').default('y')).toThrow('secret B: .default() is given twice');
  });
});

describe('Secret.transform()', () => {
  it('converts the value, and transforms run in the order they are chained', () => {
    const hosts = secret('HOSTS')
      .transform((text) => text.split(','))
      .transform((list) => list.map((host) => host.trim()));
    expect(hosts.value({ HOSTS: 'a, b ,c' })).toEqual(['a', 'b', 'c']);
  });

  it('makes the secret invalid when the transform throws', () => {
    const config = secret('CONFIG_JSON').transform((text) => JSON.parse(text) as unknown);
    expect(config.value({ CONFIG_JSON: '{"a":1}' })).toEqual({ a: 1 });
    expect(() => config.value({ CONFIG_JSON: '{oops' })).toThrow('secret CONFIG_JSON could not be transformed (the transform threw)');
  });

  it('refuses something that is not a function', () => {
    expect(() => secret('X').transform('upper' as never)).toThrow('secret X: .transform() takes a function');
  });
});

describe('Secret.validate()', () => {
  it('receives the value as the steps before it left it: after a transform, the transformed value', () => {
    const seen: unknown[] = [];
    const workers = secret('WORKERS')
      .transform(Number)
      .validate((count) => {
        seen.push(count);
        return Number.isInteger(count) && count > 0;
      }, 'must be a positive integer');
    expect(workers.value({ WORKERS: '4' })).toBe(4);
    expect(seen).toEqual([4]);
    expect(() => workers.value({ WORKERS: '-1' })).toThrow('secret WORKERS must be a positive integer');
  });

  it('runs before a transform chained after it, on the raw string', () => {
    const seen: unknown[] = [];
    secret('RAW').validate((raw) => void seen.push(raw)).transform(Number).value({ RAW: '7' });
    expect(seen).toEqual(['7']);
  });

  it('treats returning false or throwing as invalid, and true or nothing as valid', () => {
    expect(() => secret('A').validate(() => false).require({ A: 'x' })).toThrow('secret A failed validation');
    const throwing = secret('B').validate(() => {
      throw new Error('too short');
    });
    expect(() => throwing.require({ B: 'x' })).toThrow('secret B failed validation');
    expect(secret('C').validate(() => true).require({ C: 'x' })).toBe('x');
    expect(secret('D').validate(() => undefined).require({ D: 'x' })).toBe('x');
  });

  it('stops at the first failing check and reports its rule', () => {
    const key = secret('KEY')
      .validate((value) => value.length >= 8, 'must be at least 8 characters')
      .validate((value) => /^[a-f0-9]+$/.test(value), 'must be hexadecimal');
    expect(() => key.require({ KEY: 'zz' })).toThrow('secret KEY must be at least 8 characters');
    expect(() => key.require({ KEY: 'zzzzzzzz' })).toThrow('secret KEY must be hexadecimal');
    expect(key.require({ KEY: 'abcdef01' })).toBe('abcdef01');
  });

  it('refuses a rule that is not one line of text', () => {
    expect(() => secret('R').validate(() => true, 'two\nlines')).toThrow('secret R: a .validate() rule is one line of text');
  });
});

describe('Secret.url()', () => {
  it('accepts what WHATWG URL parses as an absolute URL and keeps the string', () => {
    const url = secret('DATABASE_URL').url();
    for (const value of ['postgres://user:pw@db:5432/app', 'https://example.com/hook?x=1', 'mysql://root@127.0.0.1/t']) {
      expect(url.require({ DATABASE_URL: value })).toBe(value);
    }
  });

  it('refuses relative and malformed URLs', () => {
    const url = secret('DATABASE_URL').url();
    for (const value of ['/relative/path', 'db.example.com', 'http://', 'not a url']) {
      expect(() => url.require({ DATABASE_URL: value })).toThrow('secret DATABASE_URL is not a valid URL');
    }
  });
});

describe('chains', () => {
  it('leave earlier references unchanged: each method returns a new reference', () => {
    const raw = secret('TIMEOUT');
    const timeout = raw.transform(Number);
    expect(timeout).not.toBe(raw);
    expect(raw.value({ TIMEOUT: '30' })).toBe('30');
    expect(timeout.value({ TIMEOUT: '30' })).toBe(30);
  });

  it('register the whole chain under one name, checked by resolveSecrets', () => {
    secret('WEBHOOK').url().default('https://hooks.example/default');
    expect(listSecrets()).toEqual([{ name: 'WEBHOOK', hasDefault: true, isSet: false }]);
    expect(() => resolveSecrets({ WEBHOOK: 'nope' })).toThrow('secret WEBHOOK is not a valid URL');
    expect(() => resolveSecrets({})).not.toThrow();
  });

  it('keep the declared chain registered when an earlier link is extended again', () => {
    const base = secret('LIMIT');
    base.validate((value) => value !== 'bad', 'must not be bad');
    base.transform(Number);
    expect(() => resolveSecrets({ LIMIT: 'bad' })).toThrow('secret LIMIT must not be bad');
  });
});
