// The server constructor's part of spec §8: with the cache on, the default get and list statements of every
// eligible mounted resource are prepared while the application is built; with `statementCache: false`, the
// databases of the served services prepare nothing at all.
import { SetupError } from '../errors';
import type { Service } from '../service';
import { prepareFixedStatement } from './fixed-statements';
import { statementCacheOf } from './statement-cache';
import type { MountedRoute } from '../model/action-routes';

/** `statementCache: false` turns the cache off for the served databases: first, before any handler prepares a statement. */
export function applyStatementCacheOption(services: readonly Service[], option: unknown): void {
  if (option !== undefined && typeof option !== 'boolean') throw new SetupError('statementCache must be true or false');
  if (option === false) for (const service of services) statementCacheOf(service.db).disable();
}

/** spec §8 rule 4, once the handlers exist (a compiled handler may have prepared its fixed shapes already). */
export function prepareStatements(routes: readonly MountedRoute[]): void {
  for (const { route } of routes) {
    const source = route.source;
    // A route with its own scope never runs the fixed shapes through that route (spec §8 rule 2 applies per call).
    if (source.kind === 'crud' && source.routeScope === null && (source.action === 'get' || source.action === 'list')) prepareFixedStatement(source.runtime, source.action);
  }
}
