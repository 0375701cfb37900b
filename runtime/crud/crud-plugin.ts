// `crud(options)`: the plugin that gives a resource its eight typed actions and their HTTP routes.
import type { Table } from 'drizzle-orm';
import { CRUD_ACTIONS, takesId, type CrudActionName, type CrudActionSpec } from '../actions';
import { SetupError } from '../errors';
import type { Context } from '../model/context';
import type { CrudActionsOf } from '../model/crud-actions';
import { buildCrudRuntime, enabledActions, type CrudRuntime } from '../model/crud-runtime';
import type { AnyContext, CrudOptions, Operations, RelationOption, RouteSetting, ScopeFunction } from '../model/options';
import type { FieldPolicies } from '../model/policy-types';
import { installRegisteredValidators } from '../model/registered-validators';
import { relationInputErrors } from '../model/relation-input';
import { relationOf } from '../model/relations';
import { planOf } from '../sql/resource-plan';
import { idParserFor, type ActionRoute } from '../route';
import type { Resource, ResourcePlugin } from '../service';
import { runCrudAction } from './actions';

/** The resource with its crud actions attached, typed by its policy. */
export type CrudResource<TTable extends Table, TContext = Context, TFields = unknown, TOperations = undefined, TRelations = unknown> = Resource<TTable, TContext> &
  CrudActionsOf<{ table: TTable; ctx: TContext; fields: TFields; operations: TOperations; relations: TRelations }>;

/** A crud plugin, ready for `resource.use()`: it carries its options' types to the actions `use` returns. */
export type CrudPlugin<TTable extends Table = any, TContext = any, TFields = unknown, TOperations = unknown, TRelations = unknown> = ResourcePlugin<TTable, TContext, TFields, TOperations, TRelations>;

/** The options as the runtime reads them: any table, any context. */
type RuntimeOptions = CrudOptions;

const ROUTE_PATH = /^(\/([A-Za-z0-9._~-]+|:id))*$/;
const ROUTE_OPTION_KEYS: readonly string[] = ['path', 'scope'];

/** A mounted route as its `routes` setting makes it: the path below `${prefix}`, and the route's own scope. */
interface RouteChoice {
  readonly path: string;
  readonly scope: ScopeFunction | null;
}

function checkRoutePath(where: string, spec: CrudActionSpec, path: unknown): string {
  if (typeof path !== 'string') throw new SetupError(`${where}.path must be a string`);
  if (!ROUTE_PATH.test(path)) throw new SetupError(`${where}.path "${path}" must be empty or "/"-separated segments of letters, digits, "._~-" or ":id"`);
  const hasId = path.split('/').includes(':id');
  if (takesId(spec) && !hasId) throw new SetupError(`${where}.path "${path}" must contain the segment ":id"`);
  if (!takesId(spec) && hasId) throw new SetupError(`${where}.path "${path}" must not contain ":id": ${spec.name} takes no id`);
  return path;
}

/** The route after its `routes` setting (CONTRACT §2); null when the route is switched off. Unknown keys are refused, never ignored. */
function routeChoice(runtime: CrudRuntime, spec: CrudActionSpec, setting: RouteSetting | undefined): RouteChoice | null {
  if (setting === false) return null;
  const base = `/${runtime.resourceName}`;
  if (setting === undefined) return { path: base + spec.path, scope: null };
  const where = `${runtime.label}: routes.${spec.name}`;
  if (typeof setting !== 'object' || setting === null || Array.isArray(setting)) throw new SetupError(`${where} must be false or { path?, scope? }`);
  for (const key of Object.keys(setting)) {
    if (!ROUTE_OPTION_KEYS.includes(key)) throw new SetupError(`${where}.${key} is not a route setting (path, scope)`);
  }
  if (setting.scope !== undefined && typeof setting.scope !== 'function') throw new SetupError(`${where}.scope must be a function`);
  const path = setting.path === undefined ? spec.path : checkRoutePath(where, spec, setting.path);
  return { path: base + path, scope: (setting.scope as ScopeFunction | undefined) ?? null };
}

function checkRouteSettings(runtime: CrudRuntime, routes: RuntimeOptions['routes'], enabled: readonly CrudActionName[]): void {
  if (routes === undefined) return;
  if (typeof routes !== 'object' || routes === null) throw new SetupError(`${runtime.label}: routes must be an object keyed by action`);
  for (const key of Object.keys(routes)) {
    if (!CRUD_ACTIONS.some((spec) => spec.name === key)) throw new SetupError(`${runtime.label}: routes.${key} is not a crud action`);
    if (!enabled.includes(key as CrudActionName)) throw new SetupError(`${runtime.label}: routes.${key} is set, but operations.${key} is off`);
  }
}

/**
 * The crud plugin (spec §2.3): typed list, get, findOne, create, update, delete, count and exists actions
 * with field-level policies. `access` is required; columns not in `fields` are hidden everywhere.
 *
 * @example
 * const notes = blog.resource({ name: 'notes', table: notesTable, id: notesTable.id }).use(crud({
 *   access: 'public',
 *   fields: { id: { read: true }, title: { read: true, create: true, update: true, filter: ['eq', 'contains'], sort: true } },
 * }));
 * await notes.list({ input: { where: { title: { contains: 'draft' } }, limit: 5 } });
 */
export function crud<
  TTable extends Table = Table,
  TContext = Context,
  const TFields extends FieldPolicies<TTable, TContext> = {},
  const TOperations extends Operations = {},
  const TRelations extends Record<string, RelationOption> = {},
>(options: CrudOptions<TTable, TContext, TFields, TOperations, TRelations>): CrudPlugin<TTable, TContext, TFields, TOperations, TRelations> {
  // The types live only in the signature: the plugin is the same for every table.
  return crudPlugin(options as unknown as RuntimeOptions) as CrudPlugin<TTable, TContext, TFields, TOperations, TRelations>;
}

/** The plugin for options whose types did their work: the runtime checks the same at setup (spec §7). */
function crudPlugin(options: RuntimeOptions): CrudPlugin {
  return {
    install(resource) {
      const label = resource.label;
      const runtime = buildCrudRuntime(
        { label, resourceName: resource.name, db: resource.service.db, dialect: resource.service.dialect, table: resource.table, pkKey: resource.idKey },
        options,
      );
      const enabled = enabledActions(label, options.operations);
      checkRouteSettings(runtime, options.routes, enabled);
      // A relation given its resource (not a function, for cycles) resolves now: a bad join fails where it is declared.
      for (const declaration of runtime.relations) if (typeof declaration.target !== 'function') relationOf(runtime, declaration.name);
      resource.attachCrudRuntime(runtime);
      // CONTRACT §9: includes and relation filters are checked against the related resources' policies.
      if (runtime.relations.length > 0) runtime.validators.checkRelations((action, data) => relationInputErrors(runtime, action, data));
      // A bundle registered this resource's validators before loading the application: use them from now on.
      installRegisteredValidators(runtime);
      // The resource's plan: what its actions run, with the statement cache and keys of spec §8.
      const plan = planOf(runtime);
      const parseId = idParserFor(runtime.idSchema);
      const actions: Record<string, (call?: { input?: unknown; ctx?: AnyContext }) => Promise<unknown>> = {};
      for (const spec of CRUD_ACTIONS) {
        if (!enabled.includes(spec.name)) continue; // spec §4.1 rule 2: no action, no route
        // In-process calls never get a route's scope (CONTRACT §2).
        actions[spec.name] = (call) => runCrudAction(plan, spec.name, call?.input, call?.ctx ?? {}, null);
        const choice = routeChoice(runtime, spec, options.routes?.[spec.name]);
        const route: ActionRoute | null =
          choice === null ? null : {
                action: `${resource.name}.${spec.name}`,
                method: spec.method,
                path: choice.path,
                status: spec.status,
                input: spec.input,
                parseId,
                run: (input, ctx) => runCrudAction(plan, spec.name, input, ctx, choice.scope),
                source: { kind: 'crud', runtime, action: spec.name, routeScope: choice.scope },
              };
        resource.addAction(`${resource.name}.${spec.name}`, route);
      }
      return actions;
    },
  };
}
