// The set-up lines of a route module's compiled path (issues 11 and 27): the runner the runtime makes for the path,
// with the fixed shape's SQL where there is one, and a comment saying whether spec §8 lets its statement be cached.
import type { FixedShapeName, ResourceDescription } from '../../runtime/sql/resource-description';
import { code, comment, joinCode, name, type Code } from '../code/code';
import { hasFixedShapes, type CompiledPath } from './fixed-shapes';

/** The runtime's maker of each path's runner (compiled-api.ts), and the name the handler gives the runner. */
const PATH_MAKERS: Record<CompiledPath, readonly [maker: string, runner: string]> = {
  getById: ['getById', 'getById'],
  listPage: ['page', 'readPage'],
  firstRow: ['page', 'readPage'],
  countAll: ['count', 'countRows'],
  anyRow: ['exists', 'anyRow'],
  deleteById: ['deleteById', 'deleteById'],
  insertRow: ['insertRow', 'insertRow'],
  updateRow: ['updateRow', 'updateRow'],
};

const PATH_SHAPES: Partial<Record<CompiledPath, FixedShapeName>> = { getById: 'getById', listPage: 'listPage', firstRow: 'listPage', countAll: 'countAll', anyRow: 'anyRow', deleteById: 'deleteById' };

/** Why the path's statements are never cached, as spec §8 says, or null when calls without a scope condition may be. */
function uncachedBecause(resource: ResourceDescription, hasRouteScope: boolean): string | null {
  const rt = resource.plan;
  if (resource.applicationDefaults.length > 0) {
    const columns = resource.applicationDefaults.map((column) => column.split(' ')[0]).join(', ');
    return `spec §8 rule 3: ${rt.resourceName} has application defaults (${columns}), so no statement of it is cached: each call prepares its own`;
  }
  if (rt.access.scope !== null) return 'spec §8 rule 2: a call with a scope condition prepares its statement for that call; one without uses the cache';
  if (hasRouteScope) return 'spec §8 rule 2: a call whose route scope gives a condition prepares its statement for that call';
  if (rt.pkCodec !== null) return `the key of ${rt.resourceName} is decoded from its JSON form, so each call prepares its statement`;
  return null;
}

/** The handler's set-up lines for its compiled path: the statement's runner, its SQL written once here. */
export function emitPathSetup(resource: ResourceDescription, path: CompiledPath, hasRouteScope: boolean): Code {
  const [maker, runner] = PATH_MAKERS[path];
  const shape = PATH_SHAPES[path];
  const because = uncachedBecause(resource, hasRouteScope);
  const lines: Code[] = [];
  if (shape === undefined) {
    lines.push(comment(`The write, its SQL written once per set of written columns, with the values of application functions bound per row.`));
    if (because !== null) lines.push(comment(`${because}.`));
    else lines.push(comment('Cached when the call has no scope condition and the cache is on (spec §8).'));
    lines.push(code`const ${name(runner)} = api.${name(maker)}(resource);`);
  } else {
    const text = hasFixedShapes(resource) ? code`shared.statements.${name(shape)}` : code`null`;
    if (because !== null) lines.push(comment(`Its SQL is written once, when the handler is made; ${because}.`));
    else lines.push(comment('The fixed shape, prepared by the driver once (spec §8); without the cache, prepared per call.'));
    lines.push(code`const ${name(runner)} = api.${name(maker)}(resource, ${text});`);
  }
  if (path !== 'countAll' && path !== 'anyRow' && path !== 'deleteById') lines.push(code`const decode = api.decoders(resource);`);
  return joinCode(lines);
}
