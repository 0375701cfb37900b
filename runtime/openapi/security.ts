// The `security` server option: OpenAPI security schemes and which operations need them, published in the
// document (components.securitySchemes, per-operation `security`) so the docs UIs offer an Authorize button
// and send the credential. It documents how callers present credentials; the `context` factory checks them.
import type { OpenAPIV3_1 } from 'openapi-types';
import { SetupError } from '../errors';

/** One OpenAPI security scheme (`{ type: 'http', scheme: 'bearer' }`, `{ type: 'apiKey', in: 'header', name: 'x-api-key' }` …). */
export type SecurityScheme = OpenAPIV3_1.SecuritySchemeObject;

/** A scheme's name (any scope), or an OpenAPI security requirement (`{ oauth: ['notes:read'] }`, or two schemes together). */
export type SecurityRequirement = string | Record<string, string[]>;

/**
 * The `security` server option.
 *
 * @example
 * createServer({
 *   context: (req) => ({ user: userOf(req.headers.authorization) }),
 *   security: {
 *     schemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
 *     require: { 'blog.stats': true, 'blog.tasks.list': ['bearer'] },
 *   },
 * });
 */
export interface SecurityOptions {
  /** OpenAPI `components.securitySchemes`, by name (letters, digits, `.`, `_`, `-`). At least one. */
  schemes: Record<string, SecurityScheme>;
  /**
   * Which operations need a credential, keyed by a service (`blog`), a resource (`blog.tasks`) or an operation
   * (`blog.tasks.list`, `blog.stats`); the most specific key wins. `true`: any one of the schemes; `false`: none;
   * a list: any one of its requirements. Default, for what no key names: every route of a resource whose
   * `access` is not `'public'` needs any one of the schemes; public resources and custom actions need none.
   */
  require?: Record<string, boolean | SecurityRequirement[]>;
}

/** What each scheme type takes besides `type` and `description` (OpenAPI 3.1 Security Scheme Object). */
const SCHEME_FIELDS: Record<string, { required: readonly string[]; optional: readonly string[] }> = {
  apiKey: { required: ['name', 'in'], optional: [] },
  http: { required: ['scheme'], optional: ['bearerFormat'] },
  mutualTLS: { required: [], optional: [] },
  oauth2: { required: ['flows'], optional: [] },
  openIdConnect: { required: ['openIdConnectUrl'], optional: [] },
};
const API_KEY_LOCATIONS = ['query', 'header', 'cookie'];
/** OpenAPI components keys. */
const SCHEME_NAME = /^[A-Za-z0-9._-]+$/;
const OPTION_KEYS = ['schemes', 'require'];

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkScheme(name: string, scheme: unknown): SecurityScheme {
  const where = `security.schemes.${name}`;
  if (!SCHEME_NAME.test(name)) throw new SetupError(`${where}: a scheme name holds only letters, digits, ".", "_" and "-"`);
  if (!isObject(scheme)) throw new SetupError(`${where} must be an OpenAPI security scheme object`);
  const fields = typeof scheme.type === 'string' && Object.hasOwn(SCHEME_FIELDS, scheme.type) ? SCHEME_FIELDS[scheme.type] : undefined;
  if (fields === undefined) throw new SetupError(`${where}.type must be one of ${Object.keys(SCHEME_FIELDS).join(', ')}`);
  const allowed = ['type', 'description', ...fields.required, ...fields.optional];
  for (const key of Object.keys(scheme)) {
    if (!allowed.includes(key) && !key.startsWith('x-')) throw new SetupError(`${where}.${key} is not a field of a ${scheme.type} security scheme (${allowed.join(', ')})`);
  }
  for (const key of fields.required) if (scheme[key] === undefined) throw new SetupError(`${where}.${key} is required for a ${scheme.type} security scheme`);
  for (const key of ['description', 'name', 'scheme', 'bearerFormat', 'openIdConnectUrl']) {
    if (scheme[key] !== undefined && typeof scheme[key] !== 'string') throw new SetupError(`${where}.${key} must be a string`);
  }
  if (scheme.type === 'apiKey' && !API_KEY_LOCATIONS.includes(scheme.in as string)) throw new SetupError(`${where}.in must be one of ${API_KEY_LOCATIONS.join(', ')}`);
  if (scheme.type === 'oauth2' && !isObject(scheme.flows)) throw new SetupError(`${where}.flows must be an OAuth flows object`);
  return scheme as unknown as SecurityScheme;
}

function checkRequirement(where: string, requirement: unknown, schemes: Record<string, SecurityScheme>): OpenAPIV3_1.SecurityRequirementObject {
  const known = Object.keys(schemes).map((name) => `"${name}"`).join(', ');
  if (typeof requirement === 'string') {
    if (!Object.hasOwn(schemes, requirement)) throw new SetupError(`${where}: "${requirement}" is not a scheme of security.schemes (${known})`);
    return { [requirement]: [] };
  }
  if (!isObject(requirement) || Object.keys(requirement).length === 0) throw new SetupError(`${where} must be a scheme name or { <scheme>: scopes[] }`);
  for (const [name, scopes] of Object.entries(requirement)) {
    if (!Object.hasOwn(schemes, name)) throw new SetupError(`${where}.${name} is not a scheme of security.schemes (${known})`);
    if (!Array.isArray(scopes) || !scopes.every((scope) => typeof scope === 'string')) throw new SetupError(`${where}.${name} must be a list of scope names`);
  }
  return requirement as OpenAPIV3_1.SecurityRequirementObject;
}

/** A documented operation as the security option sees it. */
export interface SecuredOperation {
  /** `blog.tasks.list`, or `blog.stats` for a custom action. */
  readonly operationId: string;
  /** Whether the default applies (a crud route of a resource whose access is not `'public'`). */
  readonly isGuarded: boolean;
}

/** The checked option: the schemes to publish, and each operation's `security`. */
export interface ResolvedSecurity {
  readonly schemes: Record<string, SecurityScheme>;
  /** The operation's `security` requirements, or null when it needs none. */
  requirementsFor(operation: SecuredOperation): OpenAPIV3_1.SecurityRequirementObject[] | null;
}

/**
 * Checks the option against the operations the document describes (every key of `require` must name one of
 * them, a service or a resource of them): a SetupError names the first bad key. Null without the option.
 */
export function resolveSecurity(option: SecurityOptions | undefined, operationIds: readonly string[]): ResolvedSecurity | null {
  if (option === undefined) return null;
  if (!isObject(option)) throw new SetupError('security must be { schemes, require? }');
  for (const key of Object.keys(option)) if (!OPTION_KEYS.includes(key)) throw new SetupError(`security.${key} is not a security option (${OPTION_KEYS.join(', ')})`);
  if (!isObject(option.schemes) || Object.keys(option.schemes).length === 0) throw new SetupError('security.schemes must name at least one OpenAPI security scheme');
  const schemes: Record<string, SecurityScheme> = {};
  for (const [name, scheme] of Object.entries(option.schemes)) schemes[name] = checkScheme(name, scheme);
  const anyScheme = Object.keys(schemes).map((name) => ({ [name]: [] }));

  const rules = new Map<string, OpenAPIV3_1.SecurityRequirementObject[] | null>();
  const given = option.require ?? {};
  if (!isObject(given)) throw new SetupError('security.require must be an object keyed by service, resource or operation');
  for (const [key, value] of Object.entries(given)) {
    const where = `security.require["${key}"]`;
    if (!operationIds.some((id) => id === key || id.startsWith(`${key}.`))) throw new SetupError(`${where} names no mounted service, resource or operation`);
    if (value === true) rules.set(key, anyScheme);
    else if (value === false) rules.set(key, null);
    else if (Array.isArray(value) && value.length > 0) rules.set(key, value.map((requirement, index) => checkRequirement(`${where}[${index}]`, requirement, schemes)));
    else throw new SetupError(`${where} must be true, false or a non-empty list of scheme names or requirements`);
  }

  return {
    schemes,
    requirementsFor({ operationId, isGuarded }) {
      // The most specific key wins: `blog.tasks.list`, then `blog.tasks`, then `blog`.
      const words = operationId.split('.');
      for (let length = words.length; length > 0; length--) {
        const key = words.slice(0, length).join('.');
        if (rules.has(key)) return rules.get(key)!;
      }
      return isGuarded ? anyScheme : null;
    },
  };
}
