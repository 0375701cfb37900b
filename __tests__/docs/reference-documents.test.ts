// `reference.documents`: each extra document is { name, url } or { name, document }; checked at
// construction, inline documents get a URL on the page, absolute URLs give the CSP their origin.
import { SetupError } from 'tessera-api';
import { resolveReferenceDocuments } from '../../runtime/docs/reference-documents';

describe('resolveReferenceDocuments', () => {
  it('keeps the order, maps inline documents to the page and collects the origins of absolute URLs', () => {
    const billing = { openapi: '3.1.0', info: { title: 'Billing', version: '1' }, paths: {} };
    const resolved = resolveReferenceDocuments(
      [
        { name: 'Partner', url: 'https://api.partner.example/v1/openapi.json' },
        { name: 'Billing', document: billing },
        { name: 'Status', url: '/status/openapi.json' },
        { name: 'Partner v2', url: 'https://api.partner.example/v2/openapi.json' },
      ],
      '/reference',
    );
    expect(resolved.entries).toEqual([
      { name: 'Partner', url: 'https://api.partner.example/v1/openapi.json' },
      { name: 'Billing', url: '/reference/documents/1.json' },
      { name: 'Status', url: '/status/openapi.json' },
      { name: 'Partner v2', url: 'https://api.partner.example/v2/openapi.json' },
    ]);
    expect([...resolved.inline]).toEqual([[1, JSON.stringify(billing)]]);
    expect(resolved.origins).toEqual(['https://api.partner.example']);
  });

  it('accepts no documents', () => {
    expect(resolveReferenceDocuments(undefined, '/reference')).toEqual({ entries: [], inline: new Map(), origins: [] });
  });

  it.each([
    [{ name: 'A' }, 'reference.documents[0] needs exactly one of url and document'],
    [{ name: 'A', url: '/a.json', document: {} }, 'reference.documents[0] needs exactly one of url and document'],
    [{ url: '/a.json' }, 'reference.documents[0].name must be a non-empty string'],
    [{ name: ' ', url: '/a.json' }, 'reference.documents[0].name must be a non-empty string'],
    [{ name: 'A', url: 'javascript:alert(1)' }, 'reference.documents[0].url must be a path on this server (/specs/billing.json) or an http(s) URL'],
    [{ name: 'A', url: '//evil.example/a.json' }, 'reference.documents[0].url must be a path on this server'],
    // Browsers read `\` as `/` and drop tabs and newlines: both are `//evil.example/a.json`.
    [{ name: 'A', url: '/\\evil.example/a.json' }, 'reference.documents[0].url must be a path on this server'],
    [{ name: 'A', url: '/\t/evil.example/a.json' }, 'reference.documents[0].url must be a path on this server'],
    [{ name: 'A', url: 'openapi.json' }, 'reference.documents[0].url must be a path on this server'],
    [{ name: 'A', document: [] }, 'reference.documents[0].document must be an OpenAPI document object'],
    ['A', 'reference.documents[0] must be { name, url } or { name, document }'],
  ])('refuses %j with a SetupError', (entry, message) => {
    expect(() => resolveReferenceDocuments([entry], '/reference')).toThrow(SetupError);
    expect(() => resolveReferenceDocuments([entry], '/reference')).toThrow(message);
  });

  it('refuses a URL with credentials without quoting them: fetch() would refuse it, and the page would publish them', () => {
    for (const url of ['https://reader:s3cr3t-token@specs.example/a.json', 'https://s3cr3t-token@specs.example/a.json']) {
      let error: unknown;
      try {
        resolveReferenceDocuments([{ name: 'A', url }], '/reference');
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(SetupError);
      expect((error as Error).message).toBe('reference.documents[0].url must not hold credentials (user:password@): the page publishes it');
      expect((error as Error).message).not.toContain('s3cr3t-token');
    }
  });

  it('refuses a name used twice and a value that is not an array', () => {
    expect(() => resolveReferenceDocuments([{ name: 'A', url: '/a.json' }, { name: 'A', url: '/b.json' }], '/r')).toThrow('reference.documents[1]: the name "A" is used twice');
    expect(() => resolveReferenceDocuments({ name: 'A' }, '/r')).toThrow('reference.documents must be an array of { name, url } or { name, document }');
  });
});
