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
}

/** Status and error code (or created title) of a raw POST /api/notes. */
function post(url: string, { headers, body, chunked = false }: Sent): Promise<{ status: number; answer: string }> {
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
    ['application/json', '"a bare string"', 400, 'BAD_REQUEST'],
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
