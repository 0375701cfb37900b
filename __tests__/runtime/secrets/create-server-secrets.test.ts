// The `secrets` option of createServer (spec §4.3, §7): secrets are resolved at construction, from
// process.env or `secrets.source`, with one error for every missing secret, unless `validate: false`.
import { createServer, overrideSecret, resetSecrets, secret, SecretError } from 'tessera-api';
import { request } from '../../helpers/request';
import { useServerTestbed } from '../../helpers/server-testbed';

const ENV_NAME = 'TESSERA_TEST_SECRET_SERVER';

function constructionError(run: () => unknown): SecretError {
  try {
    run();
  } catch (error) {
    return error as SecretError;
  }
  throw new Error('expected createServer to throw');
}

describe('createServer secrets', () => {
  const testbed = useServerTestbed();
  afterEach(() => {
    resetSecrets();
    delete process.env[ENV_NAME];
  });

  it('fails to construct with one SecretError listing every missing required secret', () => {
    secret('DATABASE_URL').url();
    secret('REGION').default('eu-west-1');
    secret('SESSION_KEY');
    secret(ENV_NAME);
    const error = constructionError(() => createServer({ requestLogging: false }));
    expect(error).toBeInstanceOf(SecretError);
    expect(error.names).toEqual(['DATABASE_URL', 'SESSION_KEY', ENV_NAME]);
    expect(error.message).toBe(
      `3 secrets are missing or invalid: secret DATABASE_URL is not set; secret SESSION_KEY is not set; secret ${ENV_NAME} is not set`,
    );
  });

  it('fails to construct when a secret is set but invalid', () => {
    secret(ENV_NAME).url();
    process.env[ENV_NAME] = 'not a url';
    expect(() => createServer({ requestLogging: false })).toThrow(`secret ${ENV_NAME} is not a valid URL`);
  });

  it('reads process.env by default and serves once every secret is set', async () => {
    secret(ENV_NAME).url();
    process.env[ENV_NAME] = 'postgres://db.internal/app';
    const { url } = await testbed.start();
    expect((await request(`${url}/_health`)).status).toBe(200);
    expect((await request(`${url}/api/notes/query`, { method: 'POST', body: {} })).status).toBe(200);
  });

  it('resolves from secrets.source instead of process.env: an object', () => {
    secret('DATABASE_URL').url();
    secret('API_TOKEN');
    const source = { DATABASE_URL: 'mysql://root@127.0.0.1/app', API_TOKEN: 't' };
    expect(() => createServer({ requestLogging: false, secrets: { source } })).not.toThrow();
    expect(() => createServer({ requestLogging: false, secrets: { source: { API_TOKEN: 't' } } })).toThrow('secret DATABASE_URL is not set');
  });

  it('resolves from secrets.source instead of process.env: a function', () => {
    secret(ENV_NAME);
    process.env[ENV_NAME] = 'in-env-but-ignored';
    const asked: string[] = [];
    const source = (name: string) => {
      asked.push(name);
      return undefined;
    };
    expect(constructionError(() => createServer({ requestLogging: false, secrets: { source } })).names).toEqual([ENV_NAME]);
    expect(asked).toEqual([ENV_NAME]);
  });

  it('lets overrides win over secrets.source', () => {
    secret('API_TOKEN');
    overrideSecret('API_TOKEN', 'from-override');
    expect(() => createServer({ requestLogging: false, secrets: { source: {} } })).not.toThrow();
  });

  it('skips the check with validate: false, and the secret still reads as missing', async () => {
    const token = secret('API_TOKEN');
    const { url } = await testbed.start({ secrets: { validate: false } });
    expect((await request(`${url}/_health`)).status).toBe(200);
    expect(() => token.require()).toThrow('secret API_TOKEN is not set');
  });

  it('checks when validate is true or left out, whatever else the secrets object holds', () => {
    secret('API_TOKEN');
    expect(() => createServer({ requestLogging: false, secrets: { validate: true } })).toThrow(SecretError);
    expect(() => createServer({ requestLogging: false, secrets: {} })).toThrow(SecretError);
    expect(() => createServer({ requestLogging: false, secrets: { validate: false, source: {} } })).not.toThrow();
  });
});
