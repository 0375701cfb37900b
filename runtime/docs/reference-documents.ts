// The `reference.documents` option: extra OpenAPI documents for the reference page's APIs tab, given by
// URL or inline. Checked at construction; inline documents are served by the page itself, and the
// origins of absolute URLs are the only other origins the page's CSP lets it fetch from.
import { SetupError } from '../errors';

/**
 * An extra document of the reference page's APIs tab: fetched by the browser from `url` (a path on this
 * server, or an http(s) URL whose origin the page's CSP then allows), or served by Tessera from `document`.
 *
 * @example
 * createServer({ reference: { path: '/reference', documents: [{ name: 'Billing', url: '/billing/openapi.json' }, { name: 'Legacy', document: legacyOpenApi }] } });
 */
export type ReferenceDocument = { name: string; url: string } | { name: string; document: Record<string, unknown> };

/** One entry of the APIs tab, as the page's script receives it. */
export interface ApiEntry {
  name: string;
  url: string;
}

export interface ResolvedDocuments {
  /** Extra entries, in the given order. */
  entries: ApiEntry[];
  /** Inline documents by index, answered at `<page>/documents/<index>.json`. */
  inline: Map<number, string>;
  /** Origins other than the server's that the page must be allowed to fetch (CSP connect-src). */
  origins: string[];
}

export function resolveReferenceDocuments(documents: unknown, pagePath: string): ResolvedDocuments {
  const resolved: ResolvedDocuments = { entries: [], inline: new Map(), origins: [] };
  if (documents === undefined) return resolved;
  if (!Array.isArray(documents)) throw new SetupError('reference.documents must be an array of { name, url } or { name, document }');
  const names = new Set<string>();
  documents.forEach((entry: unknown, index) => {
    const where = `reference.documents[${index}]`;
    if (typeof entry !== 'object' || entry === null) throw new SetupError(`${where} must be { name, url } or { name, document }`);
    const { name, url, document } = entry as { name?: unknown; url?: unknown; document?: unknown };
    if (typeof name !== 'string' || name.trim() === '') throw new SetupError(`${where}.name must be a non-empty string`);
    if (names.has(name)) throw new SetupError(`${where}: the name "${name}" is used twice`);
    names.add(name);
    if ((url === undefined) === (document === undefined)) throw new SetupError(`${where} needs exactly one of url and document`);
    if (document !== undefined) {
      if (typeof document !== 'object' || document === null || Array.isArray(document)) throw new SetupError(`${where}.document must be an OpenAPI document object`);
      resolved.inline.set(index, JSON.stringify(document));
      resolved.entries.push({ name, url: `${pagePath}/documents/${index}.json` });
      return;
    }
    resolved.entries.push({ name, url: checkUrl(url, where) });
    if (typeof url === 'string' && /^https?:/i.test(url)) {
      const { origin } = new URL(url);
      if (!resolved.origins.includes(origin)) resolved.origins.push(origin);
    }
  });
  return resolved;
}

// Where same-origin paths are resolved to check that they stay on this server.
const SAME_ORIGIN = 'http://tessera.invalid';

// A same-origin path (`/specs/billing.json`) or an absolute http(s) URL; nothing that could run script.
function checkUrl(url: unknown, where: string): string {
  if (typeof url === 'string' && URL.canParse(url, SAME_ORIGIN)) {
    // Parsed as the browser will: `/\evil.example/…` and `/<tab>/evil.example/…` leave the origin, like `//evil.example/…`.
    const parsed = new URL(url, SAME_ORIGIN);
    // fetch() refuses a URL with credentials, and the page would show them to every visitor (so not quoted here either).
    if (parsed.username !== '' || parsed.password !== '') throw new SetupError(`${where}.url must not hold credentials (user:password@): the page publishes it`);
    if (url.startsWith('/') && parsed.origin === SAME_ORIGIN) return url;
    if (/^https?:\/\//i.test(url)) return parsed.href;
  }
  throw new SetupError(`${where}.url must be a path on this server (/specs/billing.json) or an http(s) URL`);
}
