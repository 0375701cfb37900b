// One HTTP route of an action: what the server mounts and what the services route lists.
import type { CrudActionName, HttpInputSource, HttpMethod } from './actions';
import type { CrudRuntime } from './model/crud-runtime';
import type { JsonSchema } from './json-schema';
import type { AnyContext, ScopeFunction } from './model/options';
import type { LazyValidators } from './validation';

/** What the compiler specializes a crud route from: the resource's frozen runtime model and the action. */
export interface CrudRouteSource {
  readonly kind: 'crud';
  readonly runtime: CrudRuntime;
  readonly action: CrudActionName;
  /** `routes.<action>.scope`: ANDed with the access scope for calls through this route, or null. */
  readonly routeScope: ScopeFunction | null;
}

/** What the compiler specializes a custom service action route from. */
export interface ServiceActionSource {
  readonly kind: 'service-action';
  /** `<service>.<action>`. */
  readonly label: string;
  readonly input: JsonSchema | undefined;
  readonly validators: LazyValidators<'input'> | null;
  /** Runs the user's handler after validation, mapping driver errors (CONTRACT §4). */
  readonly invoke: (input: unknown, ctx: AnyContext) => Promise<unknown>;
}

export interface ActionRoute {
  /** The action name: `notes.list` for a resource action, the declared name for a service action. */
  readonly action: string;
  readonly method: HttpMethod;
  /** Path below the server's `prefix`, starting with `/`; `:id` names the row. */
  readonly path: string;
  /** Success status (201 for create, 200 otherwise). */
  readonly status: number;
  readonly input: HttpInputSource;
  /** Turns the `:id` path segment into the id value the input schema expects (numbers for integer keys). */
  readonly parseId: (raw: string) => unknown;
  readonly run: (input: unknown, ctx: AnyContext) => Promise<unknown>;
  readonly source: CrudRouteSource | ServiceActionSource;
}

const INTEGER = /^-?[0-9]+$/;

/** A path segment is always a string; numeric keys get numbers, and anything else is left for validation to refuse. */
export function idParserFor(idSchema: Record<string, unknown>): (raw: string) => unknown {
  const type = idSchema.type;
  if (type === 'integer') return (raw) => (INTEGER.test(raw) ? Number(raw) : raw);
  if (type === 'number') return (raw) => (raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw);
  return (raw) => raw;
}
