// createServer (spec §4.3, CONTRACT §5): assembles the services into an Express application with the
// health and services routes at the root, action routes under `prefix` and the JSON error model.
import express, { type Express } from 'express';
import { routeHandlers, usesGenericHandler } from '../handlers/load-compiled';
import { listServices } from '../registry';
import { SetupError } from '../errors';
import { checkPathOption } from './path-option';
import { resolveSecrets } from '../secrets/resolve';
import { collectRoutes } from './action-routes';
import { mountDocsPages } from './docs-pages';
import { errorMiddleware, notFoundRoute } from './error-middleware';
import { healthRoute } from './health';
import { jsonBody } from './json-body';
import { openApiRoute, resolveOpenApiPath, serverOpenApiDocument } from './openapi-route';
import { requestLogger } from './request-logging';
import { DEFAULT_BODY_LIMIT, DEFAULT_PREFIX, type ServerOptions } from './server-options';
import { servicesRoute } from './services-route';
import { listenWithExpressObjects } from './express-objects';
import { installRouteDispatch } from './route-dispatch';
import { prepareStatements } from './statement-preparation';

const ENDPOINT_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

function routerStackLength(app: Express): number {
  return (app.router as unknown as { stack: unknown[] }).stack.length;
}

/** @internal The prefix as createServer mounts routes under it; `tessera build` resolves it the same way. */
export function resolvePrefix(prefix: string | undefined): string {
  if (prefix === undefined) return DEFAULT_PREFIX;
  if (prefix === '' || prefix === '/') return '';
  return checkPathOption('prefix', prefix, DEFAULT_PREFIX);
}

function resolveLogger(option: ServerOptions['requestLogging']): ((message: string) => void) | null {
  if (option === false) return null;
  if (option === true || option === undefined) return console.log;
  if (option.enabled === false) return null;
  return option.logger ?? console.log;
}

/**
 * Builds the Express application for the registered (or given) services.
 *
 * @example
 * const app = createServer({ title: 'Blog', context: (req) => ({ user: lookUp(req.headers.authorization) }) });
 * app.listen(4000);
 */
export function createServer(options: ServerOptions = {}): Express {
  // spec §4.3, §7: one SecretError listing every missing or invalid secret, before anything is built.
  if (options.secrets?.validate !== false) resolveSecrets(options.secrets?.source);
  const prefix = resolvePrefix(options.prefix);
  const services = options.services ?? listServices();
  const requestLog = resolveLogger(options.requestLogging);
  const routes = collectRoutes(services, prefix);
  const context = options.context ?? null;
  const bodyParser = jsonBody(options.bodyLimit ?? DEFAULT_BODY_LIMIT);
  prepareStatements(services, routes, options.statementCache);

  const app = express();
  app.disable('x-powered-by');
  listenWithExpressObjects(app);
  app.disable('etag'); // action answers are not cacheable by default; skip hashing every body
  const before = requestLog === null ? [] : [requestLogger(requestLog)];
  for (const layer of before) app.use(layer);
  const firstLayer = routerStackLength(app);

  app.get('/_health', healthRoute(services, Date.now()));
  app.get('/_app/services', servicesRoute(services, prefix));
  // Before the OpenAPI document: compiled handlers install their ahead-of-time validators, which the
  // document's request examples then use (a bundle under --disallow-code-generation-from-strings cannot compile).
  const handlerChoice = { compiler: options.compiler, compilation: options.compilation, context };
  const handlers = routeHandlers(routes, handlerChoice);
  // spec §4.2: the raw OpenAPI document at openApiPath, outside the prefix, built once; none with `docs: false`.
  const openApiPath = resolveOpenApiPath(options.openApiPath, routes);
  const openApiDocument = options.docs === false ? null : serverOpenApiDocument(options, services, prefix);
  if (openApiDocument !== null) app.get(openApiPath, openApiRoute(openApiDocument));

  for (const endpoint of options.endpoints ?? []) {
    if (!ENDPOINT_METHODS.has(endpoint.method)) throw new SetupError(`endpoints: method "${endpoint.method}" is not an HTTP method`);
    app[endpoint.method.toLowerCase() as 'get'](endpoint.path, endpoint.handler);
  }

  // spec §4.2: /docs, /swagger and /reference, at the root whatever the prefix.
  mountDocsPages(app, options);

  const earlierLayers = { from: firstLayer, to: routerStackLength(app) };
  const chains = routes.map(({ route }, index) => (route.method === 'POST' || route.method === 'PATCH' ? [bodyParser, handlers[index]] : [handlers[index]]));
  routes.forEach(({ route, path }, index) => {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'delete';
    app[method](path, ...chains[index]);
  });

  app.use(notFoundRoute);
  // Internal errors are always logged (without values), to the request logger when one is given.
  const onError = errorMiddleware(requestLog ?? console.error);
  app.use(onError);
  // Compiled handlers skip Express's router walk; the generic handler stays plain Express (compiler: false).
  if (!usesGenericHandler(handlerChoice)) installRouteDispatch(app, routes, chains, { before, earlierLayers, unclaimed: notFoundRoute, onError });
  return app;
}
