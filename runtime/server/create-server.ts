// createServer (spec §4.3, CONTRACT §5): assembles the services into an Express application with the
// health and services routes at the root, action routes under `prefix` and the JSON error model.
import { applyCursorSecret } from './cursor-secret';
import express, { type Express } from 'express';
import { routeHandlers, usesGenericHandler } from '../handlers/load-compiled';
import type { Service } from '../service';
import { SetupError } from '../errors';
import { resolveSecrets } from '../secrets/resolve';
import { routeKey } from '../model/action-routes';
import { describeApplication } from './application-model';
import { resolveSecurity } from '../openapi/security';
import { documentInfo } from '../openapi/document-info';
import { mountDocsPages } from './docs-pages';
import { errorMiddleware, notFoundRoute } from './error-middleware';
import { healthRoute } from './health';
import { jsonBody } from './json-body';
import { DEFAULT_TITLE, openApiRoute, resolveOpenApiPath, serverOpenApiDocument } from './openapi-route';
import { requestLogger } from './request-logging';
import { DEFAULT_BODY_LIMIT, type ServerOptions } from './server-options';
import type { Context } from '../model/context';
import type { AnyContext } from '../model/options';
import { checkServerOptionKeys, checkServerOptionTypes } from './server-option-keys';
import { servicesRoute } from './services-route';
import { ServerLifecycle, type CloseOptions, type CloseResult } from './graceful-close';
import { installListen } from './listen';
import { resolveTimeouts } from './server-timeouts';
import { installRouteDispatch } from './route-dispatch';
import { fixedPathGuard, fixedPaths } from './fixed-paths';
import { mountActionRoutesOnFirstUse } from './lazy-action-routes';
import { applyStatementCacheOption } from '../sql/statement-preparation';
import type { AppTelemetry } from '../telemetry/app-telemetry';
import { databasesOf } from '../dialects/read-replicas';
import { resolveEdge } from './edge-layers';

const ENDPOINT_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

function routerStackLength(app: Express): number {
  return (app.router as unknown as { stack: unknown[] }).stack.length;
}

function resolveLogger(option: ServerOptions['requestLogging']): ((message: string) => void) | null {
  if (option === false) return null;
  if (option === true || option === undefined) return console.log;
  if (option.enabled === false) return null;
  return option.logger ?? console.log;
}

function resolveErrorLogger(option: ServerOptions['errorLogger']): ((message: string) => void) | null {
  if (option === false) return null;
  if (option === undefined) return console.error;
  if (typeof option !== 'function') throw new SetupError('errorLogger must be a function taking one line, or false');
  return option;
}

/** The Express application createServer returns, with the graceful shutdown of its servers and databases. */
export interface TesseraApp extends Express {
  /**
   * Shuts down gracefully: stops accepting connections on the servers `app.listen` started (and `servers`),
   * answers /_health 503 "stopping", lets in-flight requests finish within the grace period, closes
   * kept-alive connections, then closes the services' database clients. Calling it again answers the same promise.
   *
   * @example
   * const app = createServer();
   * app.listen(4000);
   * process.once('SIGTERM', () => app.close().then(() => process.exit(0)));
   */
  close(options?: CloseOptions): Promise<CloseResult>;
}

/**
 * Builds the Express application for the registered (or given) services.
 *
 * @example
 * const app = createServer({ title: 'Blog', context: (req) => ({ user: lookUp(req.headers.authorization) }) });
 * app.listen(4000);
 *
 * `context` answers the registered `Context` (a factory answering anything else does not compile), or
 * `createServer<Ctx>(…)`'s.
 */
export function createServer<TContext extends Context = Context>(given: ServerOptions<TContext> = {}): TesseraApp {
  // The context's type is the caller's promise to its actions; the server passes the object on as it is.
  const options = given as ServerOptions<AnyContext>;
  if (typeof options !== 'object' || options === null) throw new SetupError('createServer takes an object of server options');
  checkServerOptionKeys(options); // no silent ignore: `titel` is a SetupError naming it
  checkServerOptionTypes(options); // nor `title: 42`
  // spec §4.3, §7: one SecretError listing every missing or invalid secret, before anything is built.
  if (options.secrets?.validate !== false) resolveSecrets(options.secrets?.source);
  // The prefix, services and routes, described once (application-model.ts): `tessera build` compiles the same.
  const { prefix, services, routes } = describeApplication(options);
  const requestLog = resolveLogger(options.requestLogging);
  const errorLog = resolveErrorLogger(options.errorLogger);
  const timeouts = resolveTimeouts(options);
  // Request ids, CORS, auth and rate limits: resolved now; each one that is off adds nothing to a request.
  const edge = resolveEdge(options, routes, errorLog);
  const bodyParser = jsonBody(options.bodyLimit ?? DEFAULT_BODY_LIMIT);
  applyCursorSecret(options.cursorSecret, options.secrets?.source);
  applyStatementCacheOption(services, options.statementCache);
  // CONTRACT §8: telemetry only with `dashboard`; without it nothing below records anything or costs anything.
  const telemetry = createTelemetry(options, services);

  // A database restart must not take the process down with it: idle connection failures are reported, not thrown.
  for (const service of services) for (const db of databasesOf(service.db)) service.dialect.watchClient(db, errorLog ?? (() => undefined));
  const lifecycle = new ServerLifecycle(services, timeouts.shutdownGracePeriod, errorLog);
  const app = express() as TesseraApp;
  app.disable('x-powered-by');
  trustProxies(app, options.trustProxy);
  installListen(app, timeouts, lifecycle);
  let closing: Promise<CloseResult> | null = null;
  app.close = (closeOptions) => (closing ??= lifecycle.close(closeOptions).finally(() => edge.close()));
  app.disable('etag'); // action answers are not cacheable by default; skip hashing every body
  const before = [...edge.first, ...(telemetry === null ? [] : [telemetry.recorder.startLayer()]), ...(requestLog === null ? [] : [requestLogger(requestLog)]), ...edge.shared];
  for (const layer of before) app.use(layer);
  const firstLayer = routerStackLength(app);

  app.get('/_health', healthRoute(services, Date.now(), lifecycle));
  app.get('/_app/services', servicesRoute(services, prefix));
  // Before the OpenAPI document: compiled handlers install their ahead-of-time validators, which the
  // document's request examples then use (a bundle under --disallow-code-generation-from-strings cannot compile).
  const handlerChoice = { compiler: options.compiler, compilation: options.compilation, context: edge.context };
  const handlers = routeHandlers(routes, handlerChoice);
  // spec §4.2: the raw OpenAPI document at openApiPath, outside the prefix, built once; none with `docs: false`.
  // Built on its first request: a fifth of a 50-resource bundle's start went into a document most starts never
  // serve (issue 16). The `security`, `license` and `contact` options are checked now all the same (a SetupError names the bad key).
  const openApiPath = resolveOpenApiPath(options.openApiPath, routes);
  resolveSecurity(options.security, routes.map(routeKey));
  documentInfo({ title: '', version: '', license: options.license, contact: options.contact });
  if (options.docs !== false) app.get(openApiPath, openApiRoute(() => serverOpenApiDocument(options, services, prefix, routes)));

  for (const endpoint of options.endpoints ?? []) {
    if (!ENDPOINT_METHODS.has(endpoint.method)) throw new SetupError(`endpoints: method "${endpoint.method}" is not an HTTP method`);
    app[endpoint.method.toLowerCase() as 'get'](endpoint.path, endpoint.handler);
  }

  // spec §4.2: /docs, /swagger and /reference, at the root whatever the prefix.
  mountDocsPages(app, options);

  const earlierLayers = { from: firstLayer, to: routerStackLength(app) };
  const chains = routes.map((mounted, index) => {
    const { beforeBody, afterBody } = edge.routes[index];
    const body = mounted.route.method === 'POST' || mounted.route.method === 'PATCH' || mounted.route.method === 'PUT' ? [bodyParser] : [];
    const chain = [...beforeBody, ...body, ...afterBody, handlers[index]];
    return telemetry === null ? chain : [telemetry.recorder.tag(routeKey(mounted), mounted.route.method), ...chain];
  });
  const fixed = fixedPaths(app, routes);
  if (fixed !== null) app.use(fixedPathGuard(fixed, notFoundRoute));
  mountActionRoutesOnFirstUse(app, routes, chains);

  app.use(notFoundRoute);
  // Server-side errors go to the error log (without values); the request log has one line per request only.
  const onError = errorMiddleware(errorLog, telemetry === null ? null : telemetryModules().noteErrorCode);
  app.use(onError);
  // Compiled handlers skip Express's router walk; the generic handler stays plain Express (compiler: false).
  if (!usesGenericHandler(handlerChoice)) installRouteDispatch(app, routes, chains, { before, earlierLayers, unclaimed: notFoundRoute, onError, fixed });
  if (telemetry !== null) telemetryModules().attachTelemetry(app, telemetry);
  return app;
}

/**
 * The telemetry and dashboard modules, loaded only by an application with `dashboard`: a score of modules that an
 * application without one never runs, which every start paid for (issue 16).
 */
function telemetryModules() {
  const { resolveDashboardOptions } = require('../dashboard/dashboard-options') as typeof import('../dashboard/dashboard-options');
  const { AppTelemetry, attachTelemetry } = require('../telemetry/app-telemetry') as typeof import('../telemetry/app-telemetry');
  const { loadSqlite } = require('../telemetry/history-store') as typeof import('../telemetry/history-store');
  const { noteErrorCode } = require('../telemetry/request-recorder') as typeof import('../telemetry/request-recorder');
  return { AppTelemetry, attachTelemetry, loadSqlite, noteErrorCode, resolveDashboardOptions };
}

/** The telemetry of CONTRACT §8 when `dashboard` is set (its options checked now, so a mistake stops the start), else null. */
function createTelemetry(options: ServerOptions, services: readonly Service[]): AppTelemetry | null {
  if (options.dashboard === undefined) return null;
  const { AppTelemetry, loadSqlite, resolveDashboardOptions } = telemetryModules();
  const dashboard = resolveDashboardOptions(options.dashboard, options.secrets?.source);
  loadSqlite(); // the history file's driver: a SetupError now rather than when the dashboard starts
  return new AppTelemetry(options.title ?? DEFAULT_TITLE, services, dashboard);
}

/** `trustProxy`: Express's own `trust proxy`, whose address parser refuses what is not an address or subnet. */
function trustProxies(app: TesseraApp, trustProxy: ServerOptions['trustProxy']): void {
  if (trustProxy === undefined) return;
  try {
    app.set('trust proxy', trustProxy);
  } catch (error) {
    throw new SetupError(`trustProxy: ${(error as Error).message}`);
  }
}
