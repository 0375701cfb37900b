// GET {openApiPath} (spec §4.2): the raw OpenAPI 3.1 document, built once on its first request, outside the
// prefix, and only when `docs` is on. The docs pages reuse the same document (serverOpenApiDocument).
import type { RequestHandler } from 'express';
import { SetupError } from '../errors';
import { checkPathOption } from './path-option';
import type { OpenApiDocument } from '../openapi/document';
import type { Service } from '../service';
import { collectRoutes, routeKey, type MountedRoute } from '../model/action-routes';
import { jwtSecurity } from './jwt-options';
import { checkRateLimitOptions, resolveRouteCosts } from './rate-limit-options';
import type { ServerOptions } from './server-options';

export const DEFAULT_OPENAPI_PATH = '/openapi.json';
/** spec §4.3: a fixed title ending in "API Mesh"; CONTRACT §5 names it. */
export const DEFAULT_TITLE = 'Tessera API Mesh';
/** spec §9: published as `info.version`. */
export const DEFAULT_VERSION = '1.0.0';

/** Root routes createServer always mounts. */
const FIXED_PATHS = ['/_health', '/_app/services'];

/** Whether an Express path with `:params` (`/notes/:id`) matches a literal path. */
function matchesPath(pattern: string, path: string): boolean {
  const patternSegments = pattern.split('/');
  const pathSegments = path.split('/');
  return patternSegments.length === pathSegments.length && patternSegments.every((segment, index) => segment.startsWith(':') || segment === pathSegments[index]);
}

/**
 * `openApiPath`, checked like `prefix`: "/"-separated segments, and no route of its own (the health and
 * services routes, or a GET action route such as `/notes/:id` with an empty prefix) may answer it.
 */
export function resolveOpenApiPath(path: string | undefined, routes: readonly MountedRoute[]): string {
  if (path === undefined) return DEFAULT_OPENAPI_PATH;
  checkPathOption('openApiPath', path, DEFAULT_OPENAPI_PATH);
  if (FIXED_PATHS.includes(path)) throw new SetupError(`openApiPath "${path}" is already the path of a server route`);
  const taken = routes.find(({ route, path: routePath }) => route.method === 'GET' && matchesPath(routePath, path));
  if (taken !== undefined) throw new SetupError(`openApiPath "${path}" would be answered by the route GET ${taken.path} (${taken.route.action})`);
  return path;
}

/**
 * The document createServer serves for these options, services and resolved prefix: `title` (default
 * "Tessera API Mesh"), `version` (default "1.0.0"), `description`, `license`, `contact`, 401 only with a `context`
 * factory or `auth`, the `security` schemes and requirements (with `auth` and no `security`: the bearer JWT scheme),
 * 429 and the RateLimit headers on the operations `rateLimit` limits, and Access-Control-Allow-Origin with `cors`.
 */
export function serverOpenApiDocument(options: ServerOptions, services: readonly Service[], prefix: string, routes?: readonly MountedRoute[]): OpenApiDocument {
  // The document's builder (a dozen modules) loads with the first document, as the document is built (issue 16).
  const { buildOpenApiDocument } = require('../openapi/document') as typeof import('../openapi/document');
  return buildOpenApiDocument({
    services,
    prefix,
    title: options.title ?? DEFAULT_TITLE,
    version: options.version ?? DEFAULT_VERSION,
    description: options.description,
    license: options.license,
    contact: options.contact,
    hasContext: options.context !== undefined || options.auth !== undefined,
    security: options.security ?? (options.auth === undefined ? undefined : jwtSecurity()),
    routes,
    rateLimited: rateLimitedOperations(options, routes ?? collectRoutes(services, prefix)),
    rateLimitWindow: options.rateLimit?.duration,
    cors: options.cors !== undefined,
  });
}

/** The operationIds the `rateLimit` option limits (cost above 0); the option is checked (`tessera build` too). */
function rateLimitedOperations(options: ServerOptions, routes: readonly MountedRoute[]): string[] {
  if (options.rateLimit === undefined) return [];
  checkRateLimitOptions(options.rateLimit, options.auth !== undefined);
  const costs = resolveRouteCosts(options.rateLimit, routes);
  return routes.filter((_route, index) => costs[index] !== null).map(routeKey);
}

/** Builds and serializes the document on the first request, once: every request gets the same bytes. */
export function openApiRoute(document: () => OpenApiDocument): RequestHandler {
  let body: string | null = null;
  return (_req, res) => {
    body ??= JSON.stringify(document());
    res.type('application/json').send(body);
  };
}
