// CONTRACT §10: a cursor is sealed (AES-256-GCM, key from cursorSecret): it opens only for the resource and key
// that sealed it, an altered one is refused, its values are not readable in it, and the same content seals to the
// same text (the handler modes answer byte for byte the same).
import { TesseraError } from 'tessera-api';
import { decodeCursor, encodeCursor, shapeDigest, useCursorSecret } from '../../../runtime/crud/cursor-codec';

const SECRET = 'a-cursor-secret-of-at-least-32-characters';
const CONTENT = { shape: shapeDigest('5:score-', { score: { gte: 3 } }), values: ['hidden-sort-value-0123456789', 42, null, new Date('2026-01-02T03:04:05.678Z'), 12345678901234567890n, Buffer.from([1, 2, 3])] };

function refusal(run: () => unknown): { code: string; message: string; details: unknown } | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof TesseraError)) throw error;
    return { code: error.code, message: error.message, details: error.details };
  }
}

describe('cursor codec', () => {
  afterAll(() => useCursorSecret(null));
  beforeEach(() => useCursorSecret(SECRET));

  it('opens what it sealed, every value kind as it was, and seals the same content to the same text', () => {
    const cursor = encodeCursor('shop.items', CONTENT);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor('shop.items', cursor)).toEqual(CONTENT);
    expect(encodeCursor('shop.items', CONTENT)).toBe(cursor);
    expect(encodeCursor('shop.items', { ...CONTENT, values: [...CONTENT.values.slice(0, -1), Buffer.from([1, 2, 4])] })).not.toBe(cursor);
  });

  it('reveals no value: the sealed bytes hold neither the values nor the shape', () => {
    const bytes = Buffer.from(encodeCursor('shop.items', CONTENT), 'base64url');
    expect(bytes.includes(Buffer.from('hidden-sort-value'))).toBe(false);
    expect(bytes.includes(Buffer.from(CONTENT.shape))).toBe(false);
  });

  it('refuses with VALIDATION_ERROR a cursor altered anywhere, of another resource, or under another key; the message says nothing of crypto', () => {
    const cursor = encodeCursor('shop.items', CONTENT);
    const expected = { code: 'VALIDATION_ERROR', message: expect.stringMatching(/^cursor is not valid for this resource/), details: [{ path: '/cursor', message: expect.any(String) }] };
    const bytes = Buffer.from(cursor, 'base64url');
    for (let at = 0; at < bytes.length; at++) {
      const altered = Buffer.from(bytes);
      altered[at] ^= 0x01;
      expect([at, refusal(() => decodeCursor('shop.items', altered.toString('base64url')))]).toEqual([at, expected]);
    }
    expect(refusal(() => decodeCursor('shop.items', cursor.slice(0, -4)))).toEqual(expected);
    expect(refusal(() => decodeCursor('shop.items', `${cursor}=`))).toEqual(expected);
    expect(refusal(() => decodeCursor('shop.notes', cursor))).toEqual(expected);
    useCursorSecret('another-cursor-secret-of-32-characters-at-least');
    const otherKey = refusal(() => decodeCursor('shop.items', cursor));
    expect(otherKey).toEqual(expected);
    expect(otherKey!.message).not.toMatch(/decipher|auth|tag|gcm|aes|crypto/i);
    useCursorSecret(SECRET);
    expect(decodeCursor('shop.items', cursor)).toEqual(CONTENT);
  });

  it('keys each process at random without a secret: another process (a fresh key) refuses the cursor', () => {
    useCursorSecret(null);
    const cursor = encodeCursor('shop.items', CONTENT);
    useCursorSecret(null);
    expect(refusal(() => decodeCursor('shop.items', cursor))?.code).toBe('VALIDATION_ERROR');
  });

  it('digests the same where alike whatever its key order, and another where or order apart', () => {
    expect(shapeDigest('1:n+', { a: { eq: 1 }, b: { gt: 2 } })).toBe(shapeDigest('1:n+', { b: { gt: 2 }, a: { eq: 1 } }));
    expect(shapeDigest('1:n+', { a: { eq: 1 } })).not.toBe(shapeDigest('1:n+', { a: { eq: 2 } }));
    expect(shapeDigest('1:n+', undefined)).not.toBe(shapeDigest('1:n-', undefined));
  });
});
