// Chooses each route's handler (CONTRACT §5): the generic handler (`compiler: false`), handlers the
// compiler generates at construction (`compiler: true`, the default), or a built bundle's (`compilation`).
import type { RequestHandler } from 'express';
import { SetupError } from '../errors';
import { routeKey, type MountedRoute } from '../server/action-routes';
import { compiledApi } from './compiled-api';
import { generateHandlerModules } from './compiler-seam';
import { installCompiledValidators, type CompiledResource } from './compiled-resources';
import { genericHandler, type ContextFactory } from './generic-handler';

export interface HandlerDeps {
  readonly api: typeof compiledApi;
  readonly context: ContextFactory | null;
  /** Crud routes: the resource's runtime model (user functions included). */
  readonly resource?: unknown;
  /** Crud routes: the route's own scope (`routes.<action>.scope`), or null. */
  readonly routeScope?: unknown;
  /** Service action routes: the action's validated-input runner. */
  readonly action?: unknown;
}

/** What a generated handler module exports. */
export type HandlerFactory = (deps: HandlerDeps) => RequestHandler;

/** The object `tessera build` emits (compilation.js): one handler factory per operationId, one module per crud resource. */
export interface Compilation {
  /** By label (`blog.notes`): the resource's validators compiled ahead of time and their fingerprint. */
  readonly resources?: Readonly<Record<string, CompiledResource>>;
  readonly handlers: Readonly<Record<string, HandlerFactory>>;
}

/** Generated code may load ajv's runtime helpers and nothing else (its other needs come through deps). */
const GENERATED_REQUIRES = /^ajv(-formats)?\/dist\/[\w/-]+$/;

function requireForGenerated(id: string): unknown {
  if (!GENERATED_REQUIRES.test(id)) throw new SetupError(`generated code may not require "${id}"`);
  return require(id);
}

/** Runs a generated module's text in-process, as Node would run the file `tessera build` writes; answers its exports. */
function runModule(source: string, require: (id: string) => unknown = requireForGenerated): unknown {
  const module = { exports: {} as unknown };
  new Function('module', 'exports', 'require', source)(module, module.exports, require);
  return module.exports;
}

/** A route's handler module, run in-process; `resource` is what its `require('./resource.js')` answers. */
export function instantiateModule(source: string, resource?: unknown): HandlerFactory {
  const exported = runModule(source, (id) => (id === RESOURCE_MODULE && resource !== undefined ? resource : requireForGenerated(id)));
  if (typeof exported !== 'function') throw new SetupError('a generated handler module must export createHandler');
  return exported as HandlerFactory;
}

/** A crud resource's module, run in-process: its validators compiled ahead of time and their fingerprint. */
export function instantiateResourceModule(source: string): CompiledResource {
  return runModule(source) as CompiledResource;
}

/** How a crud route's module names its resource's module (beside it in the bundle). */
const RESOURCE_MODULE = './resource.js';

function generateAtConstruction(routes: readonly MountedRoute[]): Compilation {
  const handlers: Record<string, HandlerFactory> = {};
  const resources: Record<string, CompiledResource> = {};
  // Resource modules come first: route modules require them.
  for (const module of generateHandlerModules(routes)) {
    if (module.kind === 'resource') resources[module.key] = instantiateResourceModule(module.source);
    else handlers[module.key] = instantiateModule(module.source, resources[module.key.slice(0, module.key.lastIndexOf('.'))]);
  }
  return { resources, handlers };
}

/** Every crud resource a route serves gets its compiled validators before any handler is created. */
function installResources(routes: readonly MountedRoute[], compilation: Compilation): void {
  const installed = new Set<string>();
  for (const { route } of routes) {
    if (route.source.kind !== 'crud' || installed.has(route.source.runtime.label)) continue;
    installed.add(route.source.runtime.label);
    installCompiledValidators(route.source.runtime, compilation.resources?.[route.source.runtime.label]);
  }
}

function depsFor({ route }: MountedRoute, context: ContextFactory | null): HandlerDeps {
  if (route.source.kind === 'crud') return { api: compiledApi, resource: route.source.runtime, routeScope: route.source.routeScope, context };
  return { api: compiledApi, action: route.source, context };
}

function checkCompilation(value: unknown): Compilation {
  const handlers = (value as { handlers?: unknown } | null)?.handlers;
  if (typeof handlers !== 'object' || handlers === null) throw new SetupError('compilation must be the object `tessera build` emits (compilation.js)');
  return value as Compilation;
}

export interface HandlerChoice {
  compiler?: boolean;
  compilation?: Compilation;
  context?: ContextFactory | null;
}

/** `compiler: false` without a compilation: every route served by the generic handler. */
export function usesGenericHandler(choice: HandlerChoice): boolean {
  return choice.compilation === undefined && choice.compiler === false;
}

/** One Express handler per mounted route, in the same order. */
export function routeHandlers(routes: readonly MountedRoute[], choice: HandlerChoice): RequestHandler[] {
  const context = choice.context ?? null;
  if (usesGenericHandler(choice)) return routes.map(({ route }) => genericHandler(route, context));
  const compilation = choice.compilation === undefined ? generateAtConstruction(routes) : checkCompilation(choice.compilation);
  installResources(routes, compilation);
  return routes.map((mounted) => {
    const key = routeKey(mounted);
    const factory = compilation.handlers[key];
    // A bundle built before this route existed: say so instead of serving it generically by surprise.
    if (typeof factory !== 'function') throw new SetupError(`compilation has no handler for ${key}: run tessera build again`);
    return factory(depsFor(mounted, context));
  });
}
