// A crud route's handler, specialized for its resource and action: the HTTP input shaped for the route, the
// resource's ahead-of-time validator (its validators module holds them all), the access block for this
// resource's rules, and the route's fixed shape run without Drizzle (fixed-shapes.ts). Everything else calls
// the runtime.
import type { CrudActionName, HttpInputSource } from '../../runtime/actions';
import type { CrudRuntime } from '../../runtime/model/crud-runtime';
import { planOf } from '../../runtime/sql/resource-plan';
import { code, comment, joinCode, literal, name, type Code } from '../code/code';
import { crudHandlerName } from './names';
import { emitRouteScope } from './route-scope';
import { emitShapePath, emitShapeSetup, fixedShapeOf } from './fixed-shapes';
import type { HandlerParts } from './handler-parts';

/** Actions whose input may be left out altogether (`resource.list()`), as the generic pipeline allows. */
const OPTIONAL_INPUT = new Set<CrudActionName>(['list', 'findOne', 'count', 'exists']);

function emitIdParser(rt: CrudRuntime): Code {
  const keyType = String(rt.idSchema.type ?? 'any');
  const why = comment(`The :id path segment is a string; ${rt.resourceName}.${rt.pkKey} holds ${keyType} values.`);
  if (keyType === 'integer') {
    return joinCode([why, code`function parseId(raw) {
return /^-?[0-9]+$/.test(raw) ? Number(raw) : raw;
}`]);
  }
  if (keyType === 'number') {
    return joinCode([why, code`function parseId(raw) {
return raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw;
}`]);
  }
  return joinCode([why, code`function parseId(raw) {
return raw;
}`]);
}

function emitInput(action: CrudActionName, source: HttpInputSource): Code {
  switch (source) {
    case 'body':
      return OPTIONAL_INPUT.has(action) ? code`const input = req.body === undefined ? {} : req.body;` : code`const input = req.body;`;
    case 'id-and-select':
      return code`// Query parameters travel on for validation to refuse by name; ?select=a,b is a list.
const input = { ...req.query };
input.id = parseId(req.params.id);
if (typeof input.select === 'string') input.select = input.select.split(',');`;
    case 'id-and-body':
      return code`const input = { id: parseId(req.params.id), data: req.body };`;
    case 'id':
      return code`const input = { id: parseId(req.params.id) };`;
  }
}

function emitAccess(rt: CrudRuntime, action: CrudActionName, hasRouteScope: boolean): Code {
  const authorize = rt.access.isPublic
    ? comment("access: 'public': no authorize, no scope")
    : code`await api.authorize(resource, ${literal(action)}, input, ctx);`;
  if (hasRouteScope) return joinCode([authorize, emitRouteScope(action)]);
  const scope = rt.access.scope === null ? code`const scope = undefined;` : code`const scope = await api.scope(resource, ${literal(action)}, ctx);`;
  return joinCode([authorize, scope]);
}

/** `hasRouteScope`: the route has `routes.<action>.scope`, which generated code receives as `deps.routeScope`. */
export function emitCrudHandler(rt: CrudRuntime, action: CrudActionName, source: HttpInputSource, status: number, hasRouteScope: boolean): HandlerParts {
  const shape = fixedShapeOf(planOf(rt), action, hasRouteScope);
  const helpers: Code[] = [];
  if (shape !== null) helpers.push(joinCode([comment('The statement of this route\'s fixed shape, and the row writer.'), code`const shared = require('./resource.js');`]));
  if (source !== 'body') helpers.push(emitIdParser(rt));

  const setup = [
    hasRouteScope ? code`const { api, resource, routeScope, context } = deps;` : code`const { api, resource, context } = deps;`,
    code`const validateInput = resource.validators.get(${literal(action)});`,
  ];
  if (shape !== null) setup.push(emitShapeSetup(shape));

  const steps: Code[] = [
    emitInput(action, source),
    code`if (!validateInput(input)) throw api.validationError(validateInput.errors);`,
    emitAccess(rt, action, hasRouteScope),
  ];
  if (shape !== null) steps.push(emitShapePath(planOf(rt), shape, status));
  steps.push(code`const output = await api.query(resource, ${literal(action)}, input, ctx, scope);
api.sendJson(req, res, ${status}, output);`);

  const handler = code`return async function ${name(crudHandlerName(rt.resourceName, action))}(req, res, next) {
let ctx;
try {
ctx = context === null ? {} : ((await context(req)) ?? {});
} catch (error) {
next(error);
return;
}
try {
${joinCode(steps, '\n\n')}
} catch (error) {
next(api.crudError(resource, error));
}
};`;

  return {
    validation: comment(`${rt.label}: the policy is in ./resource.js; the input validators, compiled ahead of time, are installed into the resource.`),
    helpers: joinCode(helpers, '\n\n'),
    setup: joinCode(setup),
    handler,
  };
}
