// The input and output JSON Schemas of one action, self-contained (local `$defs` only), for the
// OpenAPI document and for anything else that describes actions one by one (the bundle's contract).
import type { CrudActionName } from '../actions';
import type { CrudRuntime } from '../model/crud-runtime';
import type { JsonSchema } from '../model/options';
import { buildOutputSchemas } from '../model/output-schemas';
import type { CrudRouteSource } from '../route';
import type { ServiceAction } from '../service';
import { crudInputSchema } from './crud-input-docs';
import { publishInputSchema, publishSchema } from './published-schema';
import { withRelationSchemas } from './relation-schemas';

export interface ActionSchemas {
  /** The in-process input (`resource.update({ input: { id, data } })`), as the action validates it. */
  readonly input: JsonSchema;
  /** The success body (HTTP) and return value (in-process). */
  readonly output: JsonSchema;
}

/** A crud action of a resource (a crud route's `source`, or built from the runtime for an unrouted action). */
export type CrudActionTarget = Pick<CrudRouteSource, 'kind' | 'runtime' | 'action'>;

/** A custom service action, as `service.actions` lists it. */
export type ServiceActionTarget = Pick<ServiceAction, 'input' | 'output'>;

export const UNDECLARED_INPUT_DESCRIPTION = 'Any JSON value: the action declares no input schema.';
export const UNDECLARED_OUTPUT_DESCRIPTION = 'Any JSON value: the action declares no output schema.';

function isCrudTarget(target: CrudActionTarget | ServiceActionTarget): target is CrudActionTarget {
  return (target as CrudActionTarget).kind === 'crud';
}

function crudActionSchemas(runtime: CrudRuntime, action: CrudActionName): ActionSchemas {
  const schema = runtime.inputSchemas[action];
  if (schema === undefined) throw new Error(`${runtime.label}: ${action} is not an operation of this resource`);
  const input = crudInputSchema(schema, action, runtime);
  return withRelationSchemas(runtime, action, { input, output: publishSchema(buildOutputSchemas(runtime.readable, runtime.maxLimit, runtime.maxBatch)[action]) });
}

/**
 * The JSON Schemas (2020-12) of one action's input and output, each usable on its own: references point
 * into the schema's own `$defs`. A custom action without a declared schema accepts or answers any value.
 *
 * @example
 * for (const route of resource.routes) if (route.source.kind === 'crud') console.log(route.action, actionSchemas(route.source));
 * for (const action of service.actions) console.log(action.name, actionSchemas(action));
 */
export function actionSchemas(target: CrudActionTarget | ServiceActionTarget): ActionSchemas {
  if (isCrudTarget(target)) return crudActionSchemas(target.runtime, target.action);
  return {
    input: target.input === undefined ? { description: UNDECLARED_INPUT_DESCRIPTION } : publishInputSchema(target.input),
    output: target.output === undefined ? { description: UNDECLARED_OUTPUT_DESCRIPTION } : publishSchema(target.output),
  };
}
