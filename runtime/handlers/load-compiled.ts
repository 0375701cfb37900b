// Chooses each route's handler (CONTRACT §5): the generic handler (`compiler: false`), handlers the
// compiler generates at construction (`compiler: true`, the default), or a built bundle's (`compilation`).
import path from 'node:path';
import type { RequestHandler } from 'express';
import { SetupError } from '../errors';
import { routeKey, type MountedRoute } from '../model/action-routes';
import { compiledApi } from './compiled-api';
import { generateCompilation, type HandlerModuleSource } from './compiler-seam';
import { planOf } from '../sql/resource-plan';
import { prepareStatements } from '../sql/statement-preparation';
import { installCompiledValidators, type CompiledResource } from './compiled-resources';
import { genericHandler, type ContextFactory } from './generic-handler';
import { VALIDATION_RUNTIME } from '../validation';

export interface HandlerDeps {
  readonly api: typeof compiledApi;
  readonly context: ContextFactory | null;
  /** Crud routes: the resource's plan, its runtime model (user functions included) with its statement cache. */
  readonly resource?: unknown;
  /** Crud routes: the route's own scope (`routes.<action>.scope`), or null. */
  readonly routeScope?: unknown;
  /** Service action routes: the action's validated-input runner. */
  readonly action?: unknown;
}

/** What a generated handler module exports. */
export type HandlerFactory = (deps: HandlerDeps) => RequestHandler;

/**
 * The object `tessera build` emits (compilation.js): one handler factory per operationId, one entry per crud resource.
 * compilation.js defines them as getters that require their module: a getter is read when the module is needed.
 */
export interface Compilation {
  /** By label (`blog.notes`): the fingerprint of the resource's definitions, its validators and fixed statements. */
  readonly resources?: Readonly<Record<string, CompiledResource>>;
  /** By operationId; a crud route's getter is read on the route's first request. */
  readonly handlers: Readonly<Record<string, HandlerFactory>>;
}

/**
 * Generated code may load ajv's runtime helpers, through Tessera's entry for them, and nothing else (its other needs
 * come through deps). In-process that entry is this very runtime's module, whatever `tessera-api` resolves to here.
 */
function requireForGenerated(id: string): unknown {
  if (id !== VALIDATION_RUNTIME) throw new SetupError(`generated code may not require "${id}"`);
  return require('../validation-runtime');
}

/** Runs a generated module's text in-process, as Node would run the file `tessera build` writes; answers its exports. */
function runModule(source: string, require: (id: string) => unknown = requireForGenerated): unknown {
  const module = { exports: {} as unknown };
  new Function('module', 'exports', 'require', source)(module, module.exports, require);
  return module.exports;
}

/** One route's handler module, run in-process on its own; `resource` is what its `require('./resource.js')` answers. */
export function instantiateModule(source: string, resource?: unknown): HandlerFactory {
  const exported = runModule(source, (id) => (id === RESOURCE_MODULE && resource !== undefined ? resource : requireForGenerated(id)));
  if (typeof exported !== 'function') throw new SetupError('a generated handler module must export createHandler');
  return exported as HandlerFactory;
}

/** How a crud route's module names its resource's module (beside it in the bundle). */
const RESOURCE_MODULE = './resource.js';

/**
 * Generated modules by their path in a bundle, each run on its first `require` and answered from then on, as Node
 * runs the files `tessera build` writes: a relative `require` names another of them, anything else an ajv helper.
 */
class GeneratedModules {
  readonly #sources: ReadonlyMap<string, string>;
  readonly #exports = new Map<string, unknown>();

  constructor(modules: readonly HandlerModuleSource[]) {
    this.#sources = new Map(modules.map((module) => [module.file, module.source]));
  }

  /** Runs `source` as the file `file` would run (compilation.js: the bundle's root). */
  run(file: string, source: string): unknown {
    return runModule(source, (id) => (id.startsWith('./') || id.startsWith('../') ? this.#require(path.posix.join(path.posix.dirname(file), id)) : requireForGenerated(id)));
  }

  #require(file: string): unknown {
    if (!this.#exports.has(file)) {
      const source = this.#sources.get(file);
      if (source === undefined) throw new SetupError(`generated code may not require "${file}"`);
      this.#exports.set(file, this.run(file, source));
    }
    return this.#exports.get(file);
  }
}

/** compilation.js's text run in-process over `modules`, as Node runs the bundle's: each module loads on first use. */
export function instantiateCompilation(modules: readonly HandlerModuleSource[], compilation: string): Compilation {
  return new GeneratedModules(modules).run('compilation.js', compilation) as Compilation;
}

function generateAtConstruction(routes: readonly MountedRoute[]): Compilation {
  const { modules, compilation } = generateCompilation(routes);
  return instantiateCompilation(modules, compilation);
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
  if (route.source.kind === 'crud') return { api: compiledApi, resource: planOf(route.source.runtime), routeScope: route.source.routeScope, context };
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

/**
 * One Express handler per mounted route, in the same order; then spec §8 rule 4's statements, prepared for the
 * handlers chosen (the fixed shapes of compiled handlers, Drizzle's for the generic one).
 */
export function routeHandlers(routes: readonly MountedRoute[], choice: HandlerChoice): RequestHandler[] {
  const context = choice.context ?? null;
  if (usesGenericHandler(choice)) {
    const handlers = routes.map(({ route }) => genericHandler(route, context));
    prepareStatements(routes, null);
    return handlers;
  }
  const compilation = choice.compilation === undefined ? generateAtConstruction(routes) : checkCompilation(choice.compilation);
  installResources(routes, compilation);
  const handlers = routes.map((mounted) => {
    const key = routeKey(mounted);
    const entry = Object.getOwnPropertyDescriptor(compilation.handlers, key);
    // A bundle built before this route existed: say so instead of serving it generically by surprise.
    if (entry === undefined || (entry.get === undefined && typeof entry.value !== 'function')) throw new SetupError(`compilation has no handler for ${key}: run tessera build again`);
    const deps = depsFor(mounted, context);
    // compilation.js holds its routes behind getters: a crud route's module loads on its first request (issue 16). A
    // custom action's loads now: creating its handler installs the action's validator for in-process calls too.
    if (entry.get === undefined || mounted.route.source.kind !== 'crud') return createHandler(compilation.handlers[key], deps);
    return handlerOnFirstRequest(() => compilation.handlers[key], deps);
  });
  prepareStatements(routes, compilation.resources ?? null);
  return handlers;
}

function createHandler(factory: unknown, deps: HandlerDeps): RequestHandler {
  if (typeof factory !== 'function') throw new SetupError('a generated handler module must export createHandler');
  return (factory as HandlerFactory)(deps);
}

/** A crud route's handler, its module loaded and the handler created on the route's first request. */
function handlerOnFirstRequest(load: () => unknown, deps: HandlerDeps): RequestHandler {
  let handler: RequestHandler | null = null;
  return function firstRequestLoads(req, res, next) {
    handler ??= createHandler(load(), deps);
    return handler(req, res, next);
  };
}
