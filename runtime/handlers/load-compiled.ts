// Chooses each route's handler (CONTRACT §5): the generic handler (`compiler: false`), handlers the
// compiler generates at construction (`compiler: true`, the default), or a built bundle's (`compilation`).
import type { RequestHandler } from 'express';
import { SetupError } from '../errors';
import { routeKey, type MountedRoute } from '../server/action-routes';
import { compiledApi } from './compiled-api';
import { genericHandler, type ContextFactory } from './generic-handler';

export interface HandlerDeps {
  readonly api: typeof compiledApi;
  readonly context: ContextFactory | null;
  /** Crud routes: the resource's runtime model (user functions included). */
  readonly resource?: unknown;
  /** Service action routes: the action's validated-input runner. */
  readonly action?: unknown;
}

/** What a generated handler module exports. */
export type HandlerFactory = (deps: HandlerDeps) => RequestHandler;

/** The object `tessera build` emits (compilation.js): one handler factory per operationId. */
export interface Compilation {
  readonly handlers: Readonly<Record<string, HandlerFactory>>;
}

/** Generated code may load ajv's runtime helpers and nothing else (its other needs come through deps). */
const GENERATED_REQUIRES = /^ajv(-formats)?\/dist\/[\w/-]+$/;

function requireForGenerated(id: string): unknown {
  if (!GENERATED_REQUIRES.test(id)) throw new SetupError(`generated code may not require "${id}"`);
  return require(id);
}

/** Runs a generated module's text in-process, as Node would run the file `tessera build` writes. */
export function instantiateModule(source: string): HandlerFactory {
  const module = { exports: {} as unknown };
  new Function('module', 'exports', 'require', source)(module, module.exports, requireForGenerated);
  if (typeof module.exports !== 'function') throw new SetupError('a generated handler module must export createHandler');
  return module.exports as HandlerFactory;
}

function generateAtConstruction(routes: readonly MountedRoute[]): Compilation {
  // The one lazy import of the generator (STYLE): bundles and `compiler: false` never load it or ts-morph.
  const { generateHandlerModules } = require('../../generator') as typeof import('../../generator');
  const handlers: Record<string, HandlerFactory> = {};
  for (const module of generateHandlerModules(routes)) handlers[module.key] = instantiateModule(module.source);
  return { handlers };
}

function depsFor({ route }: MountedRoute, context: ContextFactory | null): HandlerDeps {
  if (route.source.kind === 'crud') return { api: compiledApi, resource: route.source.runtime, context };
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
  return routes.map((mounted) => {
    const key = routeKey(mounted);
    const factory = compilation.handlers[key];
    // A bundle built before this route existed: say so instead of serving it generically by surprise.
    if (typeof factory !== 'function') throw new SetupError(`compilation has no handler for ${key}: run tessera build again`);
    return factory(depsFor(mounted, context));
  });
}
