// The `security` server option: its schemes become components.securitySchemes, each operation that needs a
// credential gets `security` (by default the routes of resources with access rules), the document stays valid
// for a real OpenAPI 3.1 validator, and a mistake is a SetupError naming the key, at construction.
import { buildOpenApiDocument, createServer, type SecurityOptions } from 'tessera-api';
import { operationsOf } from '../../helpers/openapi-reader';
import { validateOpenApi } from '../../helpers/openapi-validator';
import { useServerTestbed } from '../../helpers/server-testbed';

const BEARER: SecurityOptions['schemes'] = { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } };

describe('the security option', () => {
  const testbed = useServerTestbed();

  function build(security: SecurityOptions | undefined) {
    return buildOpenApiDocument({ services: [testbed.service.shop], prefix: '/api', title: 'Shop', version: '1.0.0', security });
  }

  /**
   * operationId → its `security`, for the operations that need a credential. With schemes, every other one
   * declares itself open with `[{}]` (an empty requirement: Redocly's security-defined asks each to say).
   */
  function requirements(security: SecurityOptions | undefined): Record<string, unknown> {
    const found: Record<string, unknown> = {};
    for (const { operationId, operation } of operationsOf(build(security))) {
      if (security !== undefined && JSON.stringify(operation.security) === '[{}]') continue;
      if (operation.security !== undefined) found[operationId] = operation.security;
    }
    return found;
  }

  describe('in the OpenAPI document', () => {
    it('publishes the schemes as components.securitySchemes, and the document passes a real OpenAPI 3.1 validator', async () => {
      const document = build({ schemes: { ...BEARER, key: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'A service key' } } });
      expect(document.components.securitySchemes).toEqual({ ...BEARER, key: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'A service key' } });
      expect(await validateOpenApi(document)).toEqual({ valid: true });
    });

    it('requires any one scheme on every route of a resource whose access is not public, and nothing elsewhere, by default', () => {
      const found = requirements({ schemes: { ...BEARER, key: { type: 'apiKey', in: 'header', name: 'x-api-key' } } });
      // items has authorize and scope, categories access rules without authorize (list moved, get, update and delete off);
      // notes and readings are public and ping is a custom action.
      const items = ['list', 'get', 'findOne', 'create', 'update', 'delete', 'count', 'exists', 'createMany', 'updateMany', 'deleteMany', 'upsert'].map((action) => `shop.items.${action}`);
      const categories = ['list', 'findOne', 'create', 'count', 'exists'].map((action) => `shop.categories.${action}`);
      expect(Object.keys(found).sort()).toEqual([...items, ...categories].sort());
      expect(found['shop.items.list']).toEqual([{ bearer: [] }, { key: [] }]);
      const open = operationsOf(build({ schemes: BEARER })).filter(({ operationId }) => !items.includes(operationId) && !categories.includes(operationId));
      expect(open.map(({ operationId }) => operationId)).toContain('shop.ping');
      for (const { operationId, operation } of open) expect([operationId, operation.security]).toEqual([operationId, [{}]]);
    });

    it('lets the most specific key of `require` decide: an operation, then its resource, then its service', () => {
      const found = requirements({
        schemes: { ...BEARER, oauth: { type: 'oauth2', flows: { clientCredentials: { tokenUrl: '/token', scopes: { 'notes:write': 'write notes' } } } } },
        require: { shop: false, 'shop.notes': true, 'shop.notes.create': [{ oauth: ['notes:write'] }], 'shop.ping': ['bearer'] },
      });
      expect(found['shop.notes.list']).toEqual([{ bearer: [] }, { oauth: [] }]);
      expect(found['shop.notes.create']).toEqual([{ oauth: ['notes:write'] }]);
      expect(found['shop.ping']).toEqual([{ bearer: [] }]);
      expect(Object.keys(found).some((id) => id.startsWith('shop.items.'))).toBe(false); // `shop: false` beats the default
    });

    it('adds nothing without the option: no securitySchemes, no operation security', () => {
      const document = build(undefined);
      expect(document.components.securitySchemes).toBeUndefined();
      expect(requirements(undefined)).toEqual({});
    });
  });

  describe('checked at construction', () => {
    const cases: [string, unknown, RegExp][] = [
      ['an unknown option key', { schemes: BEARER, requires: {} }, /security\.requires is not a security option \(schemes, require\)/],
      ['no scheme', { schemes: {} }, /security\.schemes must name at least one OpenAPI security scheme/],
      ['an unknown scheme type', { schemes: { bearer: { type: 'bearer' } } }, /security\.schemes\.bearer\.type must be one of apiKey, http, mutualTLS, oauth2, openIdConnect/],
      ['an unknown scheme field', { schemes: { bearer: { type: 'http', sheme: 'bearer' } } }, /security\.schemes\.bearer\.sheme is not a field of a http security scheme/],
      ['a missing required scheme field', { schemes: { bearer: { type: 'http' } } }, /security\.schemes\.bearer\.scheme is required for a http security scheme/],
      ['an apiKey in the body', { schemes: { key: { type: 'apiKey', name: 'k', in: 'body' } } }, /security\.schemes\.key\.in must be one of query, header, cookie/],
      ['a scheme name a component cannot have', { schemes: { 'my key': { type: 'http', scheme: 'basic' } } }, /security\.schemes\.my key: a scheme name holds only/],
      ['a require key that names nothing mounted', { schemes: BEARER, require: { 'shop.itmes': true } }, /security\.require\["shop\.itmes"\] names no mounted service, resource or operation/],
      ['a requirement naming an unknown scheme', { schemes: BEARER, require: { 'shop.notes': ['token'] } }, /security\.require\["shop\.notes"\]\[0\]: "token" is not a scheme of security\.schemes \("bearer"\)/],
      ['an empty requirement list', { schemes: BEARER, require: { shop: [] } }, /security\.require\["shop"\] must be true, false or a non-empty list/],
    ];
    for (const [what, security, message] of cases) {
      it(`throws a SetupError naming ${what}, with docs on and off`, () => {
        for (const docs of [true, false]) {
          expect(() => createServer({ services: [testbed.service.shop], requestLogging: false, docs, security: security as SecurityOptions })).toThrow(message);
        }
      });
    }
  });
});
