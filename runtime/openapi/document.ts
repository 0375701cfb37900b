// buildOpenApiDocument: the OpenAPI 3.1.0 document of the mounted routes (CONTRACT §5), a pure function of
// the services and options, deterministic (stable order, no timestamps), so builds can be diffed.
import type { JsonSchema } from '../crud/options';
import type { Service } from '../service';
import { ComponentSchemas } from './components';
import { documentedRoutes, openApiPath } from './documented-routes';
import { ERROR_SCHEMA, errorResponses, errorSchema } from './error-schema';
import { operationFor, type OpenApiOperation } from './operations';

export interface OpenApiOptions {
  readonly services: readonly Service[];
  /** The server prefix of action routes, as createServer resolved it (`/api`, `/v2`, or `''`). */
  readonly prefix: string;
  readonly title: string;
  readonly version: string;
  readonly description?: string;
  /**
   * Whether a `context` factory builds the caller context (and may answer 401 UNAUTHORIZED). Default true:
   * a document that lists a 401 that never comes misleads less than one that leaves out a 401 that does.
   */
  readonly hasContext?: boolean;
}

export interface OpenApiTag {
  name: string;
  description: string;
}

/** A plain, JSON-serializable OpenAPI 3.1.0 document. */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description?: string };
  servers: { url: string; description: string }[];
  tags: OpenApiTag[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema>; responses: Record<string, unknown> };
}

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
  const routes = documentedRoutes(options.services, prefix);
  const components = new ComponentSchemas();
  components.set(ERROR_SCHEMA, errorSchema());
  const context = { components, hasContext: options.hasContext ?? true, operationIds: new Set(routes.map((route) => route.operationId)) };

  const tags: OpenApiTag[] = [];
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    if (!tags.some((tag) => tag.name === route.tag)) {
      const description = route.kind === 'crud' ? `The \`${route.resource.name}\` rows of service \`${route.service.name}\`.` : `Custom actions of service \`${route.service.name}\`.`;
      tags.push({ name: route.tag, description });
    }
    const path = openApiPath(route.path);
    paths[path] ??= {};
    paths[path][route.route.method.toLowerCase()] = operationFor(route, context);
  }

  const info: OpenApiDocument['info'] = { title: options.title, version: options.version };
  if (options.description !== undefined) info.description = options.description;
  return {
    openapi: '3.1.0',
    info,
    // Paths carry the prefix, so the server is the application's root (where createServer mounts them).
    servers: [{ url: '/', description: 'The application root; every path includes the route prefix.' }],
    tags,
    paths,
    components: { schemas: components.toJSON(), responses: errorResponses() },
  };
}
