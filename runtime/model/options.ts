// The public shape of `crud(options)`: field policies, access, hooks, operations and routes (spec §2.3-2.4).
import type { SQL } from 'drizzle-orm';
import type { CrudActionName } from '../actions';
import type { JsonSchema } from '../json-schema';
import type { OperatorName } from './operators';
import type { RelationOption } from './relation-options';

export type { RelationOption } from './relation-options';

/** The caller context: whatever the server's `context` factory (or an in-process caller) provides. */
export type Context = Record<string, any>;

export type { JsonSchema } from '../json-schema';

export interface ScrubArgs {
  /** The stored value, already in its JSON form (Date as ISO string, bigint as decimal string). */
  value: unknown;
  /** The response row before any scrub ran (selected readable fields, JSON form). */
  row: Record<string, unknown>;
  ctx: Context;
}

/** Per-column field policy (spec §2.4). A column that is not listed is hidden everywhere. */
export interface FieldPolicy {
  read?: boolean;
  create?: boolean;
  update?: boolean;
  filter?: readonly OperatorName[];
  sort?: boolean;
  schema?: JsonSchema;
  scrub?: (args: ScrubArgs) => unknown;
}

/** A `where` value (CONTRACT §2): field conditions plus AND / OR / NOT. */
export type Where = {
  AND?: Where[];
  OR?: Where[];
  NOT?: Where;
} & { [field: string]: Partial<Record<OperatorName, unknown>> | RelationFilter | Where[] | Where | undefined };

/** A condition through a relation with `filter: true` (CONTRACT §9): is / isNot to-one, some / every / none to-many. */
export interface RelationFilter {
  is?: Where;
  isNot?: Where;
  some?: Where;
  every?: Where;
  none?: Where;
}

export interface AuthorizeArgs {
  ctx: Context;
  /** The crud action name: 'list', 'get', 'findOne', 'create', 'update', 'delete', 'count' or 'exists'. */
  action: CrudActionName;
  input: unknown;
  /** The resource name. */
  resource: string;
}

export interface ScopeArgs {
  ctx: Context;
  action: CrudActionName;
}

/** A condition on the rows a call may reach (CONTRACT §3): a `where` (any column, hidden ones included), Drizzle SQL, or undefined for none. */
export type ScopeFunction = (args: ScopeArgs) => Where | SQL | undefined | Promise<Where | SQL | undefined>;

export interface AccessRules {
  authorize?: (args: AuthorizeArgs) => boolean | Promise<boolean>;
  /** A condition ANDed into every query; may name any column, hidden ones included. */
  scope?: ScopeFunction;
}

export interface CrudHooks {
  beforeCreate?: (args: { data: Record<string, unknown>; ctx: Context }) => Record<string, unknown> | void | Promise<Record<string, unknown> | void>;
  beforeUpdate?: (args: { id: unknown; data: Record<string, unknown>; ctx: Context }) => Record<string, unknown> | void | Promise<Record<string, unknown> | void>;
  afterCreate?: (args: { result: Record<string, unknown>; ctx: Context }) => void | Promise<void>;
  afterUpdate?: (args: { id: unknown; result: Record<string, unknown>; ctx: Context }) => void | Promise<void>;
  afterDelete?: (args: { id: unknown; result: { success: true }; ctx: Context }) => void | Promise<void>;
}

/**
 * `routes.<action>` (CONTRACT §2): `false` keeps the action but mounts no route; `{ path?, scope? }` changes
 * the route. `path` is relative to `${prefix}/<resource>`. `scope` is ANDed with the access scope for calls
 * made through this HTTP route only (in-process calls do not get it): a route narrows what it reaches, never widens it.
 *
 * @example
 * routes: {
 *   list: { path: '/published', scope: () => ({ publishedAt: { isNotNull: true } }) },
 *   get: false,
 * }
 */
export type RouteSetting = false | RouteOptions;

export interface RouteOptions {
  /** `/`-separated segments below `${prefix}/<resource>`; get, update and delete need `:id`. Default: the action's path. */
  path?: string;
  /** ANDed with `access.scope` for calls through this route; may name any column, hidden ones included. */
  scope?: ScopeFunction;
}

export interface CrudOptions<TFields extends string = string> {
  access: 'public' | AccessRules;
  fields?: Partial<Record<TFields, FieldPolicy>>;
  operations?: false | Partial<Record<CrudActionName, boolean>>;
  defaultLimit?: number;
  maxLimit?: number;
  routes?: Partial<Record<CrudActionName, RouteSetting>>;
  hooks?: CrudHooks;
  /**
   * CONTRACT §9: the relations clients may include and (with `filter: true`) filter through, read through the
   * related resource's own policy, access, scope and scrub. Relations not listed do not exist for clients.
   *
   * @example
   * relations: { author: { resource: authorsResource, filter: true }, comments: { resource: () => commentsResource, maxLimit: 20 } }
   */
  relations?: Record<string, RelationOption>;
}
