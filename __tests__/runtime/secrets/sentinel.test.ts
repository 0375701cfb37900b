// CONTRACT §6: no message, log line or error ever contains a secret's value. A distinctive value is fed
// through every failing path (thrown errors, a real server's log and responses) and searched for.
import { inspect } from 'node:util';
import { createServer, defineService, overrideSecret, resetSecrets, resolveSecrets, secret } from 'tessera-api';
import { request } from '../../helpers/request';
import { useServerTestbed } from '../../helpers/server-testbed';

const SENTINEL = 'sentinel-5ecret-value-93b1';

/** Every way an error may be shown: message, stack, JSON, String and util.inspect (which follows `cause`). */
function everyTextOf(error: unknown): string {
  const { message, stack } = error as Error;
  return [message, stack, JSON.stringify(error), String(error), inspect(error, { depth: 10 })].join('\n');
}

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

/** A secret whose every failure path the value could travel on; each reads `{ [name]: SENTINEL }`. */
const FAILING = {
  INVALID_URL: () => secret('INVALID_URL').url(),
  REFUSED: () => secret('REFUSED').validate((value) => value.length > 100, 'must be longer than 100 characters'),
  CHECK_THROWS: () =>
    secret('CHECK_THROWS').validate((value) => {
      throw new Error(`unexpected token in ${value}`);
    }),
  TRANSFORM_THROWS: () =>
    secret('TRANSFORM_THROWS').transform((value) => {
      throw new Error(`cannot parse ${value}`);
    }),
  JSON_TRANSFORM: () => secret('JSON_TRANSFORM').transform((value) => JSON.parse(value) as unknown), // the native message quotes the text
  BAD_DEFAULT: () => secret('BAD_DEFAULT').default(SENTINEL).url(),
};

describe('secret values in errors', () => {
  afterEach(() => resetSecrets());

  it.each(Object.keys(FAILING) as (keyof typeof FAILING)[])('%s: value() and require() throw errors that name the secret but hold no value', (name) => {
    const reference = FAILING[name]();
    const source = { [name]: SENTINEL };
    for (const error of [thrownBy(() => reference.value(source)), thrownBy(() => reference.require(source))]) {
      expect(everyTextOf(error)).toContain(name);
      expect(everyTextOf(error)).not.toContain(SENTINEL);
      expect(everyTextOf(error)).not.toContain('5ecret');
    }
  });

  it('resolveSecrets and createServer report every failing secret without a value', () => {
    for (const declare of Object.values(FAILING)) declare();
    overrideSecret('TRANSFORM_THROWS', SENTINEL);
    process.env.REFUSED = SENTINEL;
    try {
      const source = Object.fromEntries(Object.keys(FAILING).map((name) => [name, SENTINEL]));
      for (const error of [thrownBy(() => resolveSecrets(source)), thrownBy(() => createServer({ requestLogging: false, secrets: { source } }))]) {
        expect((error as { names: string[] }).names).toEqual(Object.keys(FAILING));
        expect(everyTextOf(error)).not.toContain(SENTINEL);
      }
      expect(everyTextOf(thrownBy(() => createServer({ requestLogging: false })))).not.toContain(SENTINEL);
    } finally {
      delete process.env.REFUSED;
    }
  });
});

describe('secret values on a running server', () => {
  const testbed = useServerTestbed();
  afterEach(() => resetSecrets());

  it('never appear in a request log line, an error log line, a response body, the OpenAPI document or a page', async () => {
    const lines: string[] = [];
    const consoleLines: string[] = [];
    const spies = (['log', 'error', 'warn', 'info'] as const).map((level) =>
      jest.spyOn(console, level).mockImplementation((...args: unknown[]) => void consoleLines.push(args.map(String).join(' '))),
    );
    const apiToken = secret('API_TOKEN');
    const webhook = secret('WEBHOOK_URL').url();
    const parsed = FAILING.TRANSFORM_THROWS();
    overrideSecret('API_TOKEN', SENTINEL);
    overrideSecret('WEBHOOK_URL', SENTINEL);
    overrideSecret('TRANSFORM_THROWS', SENTINEL);

    const vault = defineService({ name: 'vault', db: testbed.database.db });
    vault.action('use-token', { handler: () => ({ length: apiToken.require().length }) });
    vault.action('call-webhook', { handler: () => ({ url: webhook.require() }) });
    vault.action('parse', { handler: () => ({ parsed: parsed.value() }) });

    // Invalid secrets only reach request time when the construction check is off.
    expect(everyTextOf(thrownBy(() => createServer({ requestLogging: false })))).not.toContain(SENTINEL);
    const log = (line: string) => void lines.push(line);
    const { url, close } = await testbed.start({ requestLogging: { logger: log }, errorLogger: log, secrets: { validate: false }, reference: true });
    const answers = [
      await request(`${url}/api/vault/use-token`, { method: 'POST', body: {} }),
      await request(`${url}/api/vault/call-webhook`, { method: 'POST', body: {} }),
      await request(`${url}/api/vault/parse`, { method: 'POST', body: {} }),
      await request(`${url}/_health`),
      await request(`${url}/_app/services`),
      await request(`${url}/api/notes/missing-row`),
      await request(`${url}/api/notes`, { method: 'POST', body: '{"title": ', headers: { 'content-type': 'application/json' } }),
      await request(`${url}/nowhere`),
      await request(`${url}/openapi.json`),
      await request(`${url}/docs`),
      await request(`${url}/swagger/`),
      await request(`${url}/reference`),
    ];
    await close();
    for (const spy of spies) spy.mockRestore();

    expect(answers.map((answer) => answer.status)).toEqual([200, 500, 500, 200, 200, 404, 400, 404, 200, 200, 200, 200]);
    expect(answers[0].body).toEqual({ length: SENTINEL.length });
    for (const answer of answers) expect(answer.text).not.toContain(SENTINEL);
    // The failures are logged by name, so the log is useful, but never with the value.
    expect(lines.join('\n')).toContain('SecretError: secret WEBHOOK_URL is not a valid URL');
    expect(lines.join('\n')).toContain('SecretError: secret TRANSFORM_THROWS could not be transformed');
    expect(lines.filter((line) => / → \d{3} /.test(line))).toHaveLength(answers.length);
    expect([...lines, ...consoleLines].join('\n')).not.toContain(SENTINEL);
  });
});
