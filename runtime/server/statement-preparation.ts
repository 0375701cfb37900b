// The server constructor's part of spec §8: with the cache on, the default get and list statements of every
// eligible mounted resource are prepared while the application is built; with `statementCache: false`, the
// databases of the served services prepare nothing at all.
import { SetupError } from '../errors';
import type { Service } from '../service';
import { prepareFixedStatement } from '../statements/fixed-statements';
import { statementCacheOf } from '../statements/statement-cache';
import type { MountedRoute } from './action-routes';

export function prepareStatements(services: readonly Service[], routes: readonly MountedRoute[], option: unknown): void {
  if (option !== undefined && typeof option !== 'boolean') throw new SetupError('statementCache must be true or false');
  if (option === false) {
    for (const service of services) statementCacheOf(service.db).disable();
    return;
  }
  for (const { route } of routes) {
    const source = route.source;
    if (source.kind === 'crud' && (source.action === 'get' || source.action === 'list')) prepareFixedStatement(source.runtime, source.action);
  }
}
