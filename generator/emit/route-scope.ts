// The scope step of a crud route with its own scope (`routes.<action>.scope`, CONTRACT §2): the access scope
// ANDed with the route's, resolved by the runtime. The user's function arrives as `deps.routeScope`.
import type { CrudActionName } from '../../runtime/actions';
import { code, comment, joinCode, literal, type Code } from '../code/code';

export function emitRouteScope(action: CrudActionName): Code {
  return joinCode([
    comment(`routes.${action}.scope: ANDed with the access scope, for calls through this route only.`),
    code`let scope = api.scope(resource, ${literal(action)}, ctx, routeScope);
if (api.isPending(scope)) scope = await scope;`,
  ]);
}
