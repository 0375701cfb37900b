// contract.json (CONTRACT §7): every mounted action's name, service, method, path, status, HTTP input shape and
// JSON Schemas, in the OpenAPI document's order, so one resource's change is one hunk; client.ts is emitted from it.
import type { HttpInputSource, HttpMethod } from '../../runtime/actions';
import type { JsonSchema } from '../../runtime/json-schema';
import { actionSchemas } from '../../runtime/openapi/action-schemas';
import { documentedRoutes, openApiPath } from '../../runtime/openapi/documented-routes';
import type { MountedRoute } from '../../runtime/model/action-routes';
import type { Service } from '../../runtime/service';
import { getInputOverHttp } from './get-input';

export interface ContractAction {
  /** The action name (spec §4.1 rule 4): `notes.list` for a crud action, `ping` for a custom service action. */
  readonly name: string;
  /** The service that mounts it: `blog` (the operationId is `<service>.<name>`). */
  readonly service: string;
  readonly method: HttpMethod;
  /** The full path with the prefix, parameters written `{id}` (OpenAPI style). */
  readonly path: string;
  readonly status: number;
  /**
   * Where the input travels: `body` (the whole input is the JSON body), `id-and-select` (`id` in the
   * path, `select` as `?select=a,b`), `id-and-body` (`id` in the path, `data` as the body), `id`.
   */
  readonly httpInput: HttpInputSource;
  /** The input as the action validates it (in-process shape, e.g. `{ id, data }` for update), as far as HTTP carries it (get's include by name). */
  readonly input: JsonSchema;
  /** The success body. */
  readonly output: JsonSchema;
}

export interface Contract {
  readonly title: string;
  readonly version: string;
  readonly actions: readonly ContractAction[];
}

export interface ContractSource {
  readonly services: readonly Service[];
  /** The prefix as createServer resolves it (`/api`, or `''`). */
  readonly prefix: string;
  readonly title: string;
  readonly version: string;
  /** The routes createServer collected for these services and prefix (the application model's); collected again without them. */
  readonly routes?: readonly MountedRoute[];
}

/** The contract of the routes createServer mounts for these services and prefix. */
export function buildContract(source: ContractSource): Contract {
  const actions = documentedRoutes(source.services, source.prefix, source.routes).map((route): ContractAction => {
    const schemas = actionSchemas(route.kind === 'crud' ? route.source : route.action);
    return {
      name: route.route.action,
      service: route.service.name,
      method: route.route.method,
      path: openApiPath(route.path),
      status: route.route.status,
      httpInput: route.route.input,
      // The contract is what a client can send: get's options travel in the query string.
      input: route.route.input === 'id-and-select' ? getInputOverHttp(schemas.input) : schemas.input,
      output: schemas.output,
    };
  });
  return { title: source.title, version: source.version, actions };
}
