// JSON request bodies (CONTRACT §4): the common request is read without body-parser, every other one
// through it (runtime/server/json-body.ts). Both must answer alike, so each case runs in both ways.
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import { useServerTestbed } from '../helpers/server-testbed';

interface Sent {
  headers: Record<string, string>;
  body: Buffer;
  /** Send without Content-Length (chunked), which body-parser reads. */
  chunked?: boolean;
  /** Send with Content-Length, in pieces this many bytes long, a pause between them so each arrives on its own. */
  pieces?: number;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Status and error code (or created title) of a raw POST /api/notes. */
function post(url: string, { headers, body, chunked = false, pieces }: Sent): Promise<{ status: number; answer: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(`${url}/api/notes`, { method: 'POST', headers: chunked ? headers : { ...headers, 'content-length': String(body.length) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        const parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        resolve({ status: response.statusCode ?? 0, answer: parsed.error?.code ?? parsed.title });
      });
    });
    request.on('error', reject);
    if (chunked) {
      request.write(body.subarray(0, 3));
      request.end(body.subarray(3));
    } else if (pieces !== undefined) {
      void (async () => {
        request.flushHeaders();
        for (let start = 0; start < body.length; start += pieces) {
          await pause(20);
          request.write(body.subarray(start, start + pieces));
        }
        request.end();
      })();
    } else {
      request.end(body);
    }
  });
}

const json = (text: string) => Buffer.from(text, 'utf8');

describe('JSON request bodies', () => {
  const testbed = useServerTestbed();

  it.each([
    ['application/json', '{"title":"plain"}', 201, 'plain'],
    ['application/json; charset=UTF-8', '{"title":"upper-case charset"}', 201, 'upper-case charset'],
    ['application/json;charset=utf-8', ' \n\t{"title":"leading whitespace"}', 201, 'leading whitespace'],
    ['application/json', '{"title":"ünïcödé ✓"}', 201, 'ünïcödé ✓'],
    ['application/json', '   ', 400, 'BAD_REQUEST'],
    ['application/json', '"a bare string"', 400, 'VALIDATION_ERROR'],
    ['application/json', '{"title":', 400, 'BAD_REQUEST'],
    ['application/json', '[]', 400, 'VALIDATION_ERROR'],
    ['application/json; charset=latin1', '{"title":"x"}', 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['text/plain', '{"title":"x"}', 415, 'UNSUPPORTED_MEDIA_TYPE'],
  ])('answers %s %j with %i %s, sent with a length or chunked', async (type, text, status, answer) => {
    const server = await testbed.start({});
    for (const chunked of [false, true]) {
      await expect(post(server.url, { headers: { 'content-type': type }, body: json(text), chunked })).resolves.toEqual({ status, answer });
    }
  });

  // Issue 32: such bodies were decoded with U+FFFD (or a lone surrogate) in place of the bytes and stored.
  it.each([
    ['bytes ff fe inside a string', Buffer.concat([json('{"title":"a'), Buffer.from([0xff, 0xfe]), json('"}')])],
    ['an overlong c0 af', Buffer.concat([json('{"title":"'), Buffer.from([0xc0, 0xaf]), json('"}')])],
    ['an encoded surrogate ed a0 80', Buffer.concat([json('{"title":"'), Buffer.from([0xed, 0xa0, 0x80]), json('"}')])],
    ['a truncated sequence at the end', Buffer.concat([json('{"title":"x"} '), Buffer.from([0xe2, 0x82])])],
    ['a lone high surrogate escape', json('{"title":"\\ud800"}')],
    ['a lone low surrogate escape', json('{"title":"x\\uDC00y"}')],
    ['a reversed pair', json('{"title":"\\udc00\\ud800"}')],
    ['a lone surrogate in a key', json('{"ti\\ud800tle":"x"}')],
  ])('answers 400 BAD_REQUEST for %s, sent with a length, chunked or gzipped, and stores nothing', async (_case, body) => {
    const server = await testbed.start({});
    for (const chunked of [false, true]) {
      await expect(post(server.url, { headers: { 'content-type': 'application/json' }, body, chunked })).resolves.toEqual({ status: 400, answer: 'BAD_REQUEST' });
    }
    const gzipped = { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync(body) };
    await expect(post(server.url, gzipped)).resolves.toEqual({ status: 400, answer: 'BAD_REQUEST' });
    expect((await testbed.service.notes.count({ input: {} })).count).toBe(0);
  });

  it.each([
    ['a surrogate pair escape', '{"title":"\\ud83d\\ude00"}', '\u{1F600}'],
    ['an escaped backslash before u', '{"title":"\\\\ud800"}', '\\ud800'],
    ['four-byte UTF-8', '{"title":"\u{1F600}"}', '\u{1F600}'],
  ])('stores %s exactly', async (_case, text, title) => {
    const server = await testbed.start({});
    for (const chunked of [false, true]) {
      await expect(post(server.url, { headers: { 'content-type': 'application/json' }, body: json(text), chunked })).resolves.toEqual({ status: 201, answer: title });
    }
  });

  // The common request is read in place when it arrives in one piece; in several, its pieces are joined first.
  it('reads a body with a Content-Length that arrives in pieces, a character split between two of them', async () => {
    const server = await testbed.start({});
    const body = json('{"title":"in pieces ✓"}'); // ✓ is 3 bytes: pieces of 4 split it
    await expect(post(server.url, { headers: { 'content-type': 'application/json' }, body, pieces: 4 })).resolves.toEqual({ status: 201, answer: 'in pieces ✓' });
    const invalid = Buffer.concat([json('{"title":"a'), Buffer.from([0xff]), json('"}')]);
    await expect(post(server.url, { headers: { 'content-type': 'application/json' }, body: invalid, pieces: 4 })).resolves.toEqual({ status: 400, answer: 'BAD_REQUEST' });
  });

  it('reads a gzip-compressed body', async () => {
    const server = await testbed.start({});
    const sent = { headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, body: gzipSync(json('{"title":"zipped"}')) };
    await expect(post(server.url, sent)).resolves.toEqual({ status: 201, answer: 'zipped' });
  });

  it('answers 413 PAYLOAD_TOO_LARGE above bodyLimit whether the length is declared or not', async () => {
    const server = await testbed.start({ bodyLimit: 64 });
    const body = json(JSON.stringify({ title: 'x'.repeat(100) }));
    for (const chunked of [false, true]) {
      await expect(post(server.url, { headers: { 'content-type': 'application/json' }, body, chunked })).resolves.toEqual({ status: 413, answer: 'PAYLOAD_TOO_LARGE' });
    }
    expect((await testbed.service.notes.count({ input: {} })).count).toBe(0);
  });
});
