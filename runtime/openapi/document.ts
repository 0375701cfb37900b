// buildOpenApiDocument: the OpenAPI 3.1.0 document of the mounted routes (CONTRACT §5), a pure function of
// the services and options, deterministic (stable order, no timestamps), so builds can be diffed.
import type { OpenAPIV3_1 } from 'openapi-types';
import type { MountedRoute } from '../model/action-routes';
import type { Service } from '../service';
import { ComponentSchemas } from './components';
import { documentInfo, type ContactOption, type LicenseOption } from './document-info';
import { documentedRoutes, openApiPath } from './documented-routes';
import { ERROR_SCHEMA, errorResponses, errorSchema } from './error-schema';
import { operationFor } from './operations';
import { resolveSecurity, type SecurityOptions } from './security';

export interface OpenApiOptions {
  readonly services: readonly Service[];
  /** The server prefix of action routes, as createServer resolved it (`/api`, `/v2`, or `''`). */
  readonly prefix: string;
  readonly title: string;
  readonly version: string;
  readonly description?: string;
  /** OpenAPI `info.license`: `{ name, identifier? | url? }`. */
  readonly license?: LicenseOption;
  /** OpenAPI `info.contact`: `{ name?, url?, email? }`. */
  readonly contact?: ContactOption;
  /**
   * Whether a `context` factory builds the caller context (and may answer 401 UNAUTHORIZED). Default true:
   * a document that lists a 401 that never comes misleads less than one that leaves out a 401 that does.
   */
  readonly hasContext?: boolean;
  /** Security schemes and which operations need them (the `security` server option). */
  readonly security?: SecurityOptions;
  /** @internal The routes createServer collected for these services and prefix (collected again without them). */
  readonly routes?: readonly MountedRoute[];
  /** operationIds a rate limit applies to: they document 429 RATE_LIMITED and the RateLimit headers. Default none. */
  readonly rateLimited?: readonly string[];
  /** The rate limit's window in seconds (`rateLimit.duration`): the longest Retry-After a 429 sends. */
  readonly rateLimitWindow?: number;
  /** Whether answers carry CORS headers (the `cors` server option): every response declares Access-Control-Allow-Origin. Default false. */
  readonly cors?: boolean;
}

/** A tag of the document: one per resource (`blog.notes`) and one per service with custom actions. */
export type OpenApiTag = OpenAPIV3_1.TagObject;

/** The OpenAPI 3.1.0 document Tessera builds (openapi-types' `OpenAPIV3_1.Document`), plain JSON, with paths and components always present. */
export type OpenApiDocument = OpenAPIV3_1.Document & {
  paths: OpenAPIV3_1.PathsObject;
  components: OpenAPIV3_1.ComponentsObject;
  tags: OpenApiTag[];
};

/**
 * Paths carry the prefix, so the server is the application's root (where createServer mounts them), relative to
 * wherever the document is read from. `x-internal: false`: the document is what the server publishes to whoever
 * may call it (OWASP API9 asks every server to state its audience and environment).
 */
const SERVER: OpenAPIV3_1.ServerObject = {
  url: '/',
  description: 'The server that serves this document (local, staging or production); paths include the route prefix.',
  'x-internal': false,
} as OpenAPIV3_1.ServerObject;

/**
 * Builds the OpenAPI 3.1.0 document of the routes createServer mounts for `services` under `prefix`.
 * The same input gives the same JSON text, byte for byte.
 *
 * @example
 * const document = buildOpenApiDocument({ services: listServices(), prefix: '/api', title: 'Blog', version: '1.0.0' });
 * writeFileSync('openapi.json', JSON.stringify(document, null, 2) + '\n');
 */
export function buildOpenApiDocument(options: OpenApiOptions): OpenApiDocument {
  const prefix = options.prefix === '/' ? '' : options.prefix;
  const routes = documentedRoutes(options.services, prefix, options.routes);
  const info = documentInfo(options);
  const components = new ComponentSchemas();
  components.set(ERROR_SCHEMA, errorSchema());
  const operationIds = routes.map((route) => route.operationId);
  // Checked even for a document nobody serves: a SetupError names the bad key at construction.
  const security = resolveSecurity(options.security, operationIds);
  const rateLimited = new Set(options.rateLimited ?? []);
  const cors = options.cors ?? false;
  const context = { components, hasContext: options.hasContext ?? true, operationIds: new Set(operationIds), rateLimited, cors };

  const tags: OpenApiTag[] = [];
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    if (!tags.some((tag) => tag.name === route.tag)) {
      const description = route.kind === 'crud' ? `The \`${route.resource.name}\` rows of service \`${route.service.name}\`.` : `Custom actions of service \`${route.service.name}\`.`;
      tags.push({ name: route.tag, description });
    }
    const path = openApiPath(route.path);
    const operation = operationFor(route, context);
    if (security !== null) {
      // With schemes, every operation says what it needs; `[{}]` (an empty requirement) declares one open on purpose.
      operation.security = security.requirementsFor({ operationId: route.operationId, isGuarded: route.kind === 'crud' && !route.source.runtime.access.isPublic }) ?? [{}];
    }
    // openapi-types types a 3.1 path item's operations as 3.0 and 3.1 ones at once; ours are 3.1's.
    const item = (paths[path] ??= {}) as Record<string, OpenAPIV3_1.OperationObject>;
    item[route.route.method.toLowerCase()] = operation;
  }

  const responses = usedResponses(paths, errorResponses({ rateLimit: rateLimited.size > 0, rateLimitWindow: options.rateLimitWindow, cors }));
  return {
    openapi: '3.1.0',
    info,
    servers: [{ ...SERVER }],
    tags,
    paths,
    components: security === null ? { schemas: components.toJSON(), responses } : { schemas: components.toJSON(), responses, securitySchemes: security.schemes },
  };
}

/** The shared error responses some operation refers to (429 only where a rate limit applies): none left unused. */
function usedResponses(paths: OpenApiDocument['paths'], all: Record<string, OpenAPIV3_1.ResponseObject>): Record<string, OpenAPIV3_1.ResponseObject> {
  const used = new Set<string>();
  for (const item of Object.values(paths ?? {})) {
    for (const operation of Object.values(item as Record<string, OpenAPIV3_1.OperationObject>)) {
      for (const response of Object.values(operation.responses ?? {})) {
        const ref = (response as { $ref?: string }).$ref;
        if (ref !== undefined) used.add(ref.slice(ref.lastIndexOf('/') + 1));
      }
    }
  }
  const kept: Record<string, OpenAPIV3_1.ResponseObject> = {};
  for (const [name, response] of Object.entries(all)) if (used.has(name)) kept[name] = response;
  return kept;
}
