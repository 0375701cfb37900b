// If-Match and If-None-Match headers for fuzz requests (CONTRACT §10): an ETag the server answered earlier (the
// sender puts it in for ETAG_TOKEN, so some conditional writes do match), stale and malformed ETags, `*`, weak and
// listed forms, and junk. Only bytes Node's HTTP client sends as they are (no control characters).
import fc from 'fast-check';

/** Stands for the last ETag an answer carried; the sender replaces it (or sends a stale one before any). */
export const ETAG_TOKEN = '@etag';

const base64url = fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), minLength: 0, maxLength: 40 });
const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), maxLength: 60 });

const etagValue: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constant(ETAG_TOKEN) },
  { weight: 2, arbitrary: base64url.map((text) => `"${text}"`) },
  { weight: 1, arbitrary: fc.constantFrom('*', '"*"', '""', '"', 'W/"x"', `W/${ETAG_TOKEN}`, `"a", ${ETAG_TOKEN}`, `${ETAG_TOKEN}, *`, ' ', ',', '"unterminated', 'null', "' OR 1=1 --") },
  { weight: 1, arbitrary: printable },
  // Long, yet two of them stay under Node's 16 KiB of headers (past it Node answers 431 itself, before any route).
  { weight: 1, arbitrary: fc.constant(`"${'A'.repeat(4000)}"`) },
);

/** No conditional header (most requests), or one or both of If-Match and If-None-Match. */
export const conditionalHeaders: fc.Arbitrary<Record<string, string>> = fc.oneof(
  { weight: 3, arbitrary: fc.constant({}) },
  { weight: 1, arbitrary: fc.record({ 'if-match': etagValue, 'if-none-match': etagValue }, { requiredKeys: [] }) },
);
