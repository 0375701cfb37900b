// A crud route's handler, specialized for its resource and action: the HTTP input shaped for the route, the
// resource's ahead-of-time validator (its validators module holds them all), the access block for this
// resource's rules, and the action's default call run without Drizzle (fixed-shapes.ts), hooks, scope and scrubs
// included. A read whose input asks for more (a selection, a filter, an order, a total) calls the runtime.
import { crudActionSpec, type CrudActionName, type HttpInputSource } from '../../runtime/actions';
import type { CrudRuntime } from '../../runtime/model/crud-runtime';
import { describeResource } from '../../runtime/sql/resource-description';
import { code, comment, joinCode, literal, name, type Code } from '../code/code';
import { crudHandlerName } from './names';
import { emitRouteScope } from './route-scope';
import { answersEveryCall, compiledPathOf, emitPathRun } from './fixed-shapes';
import { emitPathSetup } from './path-setup';
import type { HandlerParts } from './handler-parts';

/**
 * A route whose path names a row reads its input as the generic handler does, through the runtime's reader made
 * once here (handlers/http-input.ts: the :id parsed for the key's type, ?select=a,b a list).
 */
function emitInputReader(rt: CrudRuntime, action: CrudActionName): Code {
  const keyType = String(rt.idSchema.type ?? 'any');
  return joinCode([
    comment(`The :id path segment is a string; ${rt.resourceName}.${rt.pkKey} holds ${keyType} values.`),
    code`const readInput = api.inputReader(resource, ${literal(action)});`,
  ]);
}

/** A body is the input; one that may be left out altogether (`resource.list()`) is `{}` then (CRUD_ACTIONS). */
function emitInput(action: CrudActionName, source: HttpInputSource): Code {
  if (source !== 'body') return code`const input = readInput(req);`;
  return crudActionSpec(action).isInputOptional ? code`const input = req.body === undefined ? {} : req.body;` : code`const input = req.body;`;
}

function emitAccess(rt: CrudRuntime, action: CrudActionName, hasRouteScope: boolean): Code {
  const authorize = rt.access.isPublic
    ? comment("access: 'public': no authorize, no scope")
    : code`const authorized = api.authorize(resource, ${literal(action)}, input, ctx);
if (authorized !== undefined) await authorized;`;
  if (hasRouteScope) return joinCode([authorize, emitRouteScope(action)]);
  const scope =
    rt.access.scope === null
      ? code`const scope = undefined;`
      : code`let scope = api.scope(resource, ${literal(action)}, ctx);
if (api.isPending(scope)) scope = await scope;`;
  return joinCode([authorize, scope]);
}

/** What a read's input asks for beyond its default call. */
const RUNTIME_INPUTS: Partial<Record<CrudActionName, string>> = {
  get: 'A selection of fields',
  list: 'A selection, a filter, an order, a total or a cursor',
  findOne: 'A selection, a filter or an order',
  count: 'A filter',
  exists: 'A filter',
  update: 'If-Match (CONTRACT §10: checked in the write\'s transaction)',
  delete: 'If-Match (CONTRACT §10: checked in the write\'s transaction)',
};

/** `hasRouteScope`: the route has `routes.<action>.scope`, which generated code receives as `deps.routeScope`. */
export function emitCrudHandler(rt: CrudRuntime, action: CrudActionName, source: HttpInputSource, status: number, hasRouteScope: boolean): HandlerParts {
  const resource = describeResource(rt);
  const path = compiledPathOf(action);
  const helpers: Code[] = [joinCode([comment("What the resource's routes share: its row writer (and its fixed statements, where spec §8 lets them be cached)."), code`const shared = require('./resource.js');`])];

  const setup = [
    hasRouteScope ? code`const { api, resource, routeScope, context } = deps;` : code`const { api, resource, context } = deps;`,
    code`const validateInput = resource.validators.get(${literal(action)});`,
  ];
  if (source !== 'body') setup.push(emitInputReader(rt, action));
  if (path !== null) setup.push(emitPathSetup(resource, path, hasRouteScope));

  const steps: Code[] = [
    emitInput(action, source),
    code`if (!validateInput(input)) throw api.validationError(validateInput.errors);`,
    emitAccess(rt, action, hasRouteScope),
  ];
  if (path !== null) steps.push(emitPathRun(resource, path, status));
  if (path === null || !answersEveryCall(path)) {
    steps.push(
      joinCode([
        comment(`${RUNTIME_INPUTS[action] ?? 'Every call (CONTRACT §10: one transaction)'}: the runtime builds that query (spec §8 rule 1: one statement per shape, cached where rules 2 and 3 allow).`),
        code`const output = await api.query(resource, ${literal(action)}, input, ctx, scope);
api.sendJson(req, res, ${status}, output);`,
      ]),
    );
  }

  const handler = code`return async function ${name(crudHandlerName(rt.resourceName, action))}(req, res, next) {
// A step is awaited only when it answered a promise: an await costs a turn of the microtask queue even on a plain value.
let ctx;
try {
ctx = context === null ? {} : context(req);
if (api.isPending(ctx)) ctx = await ctx;
ctx ??= {};
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
