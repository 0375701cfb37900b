// The public shape of `crud(options)`: field policies, access, hooks, operations and routes (spec §2.3-2.4), typed
// by the table, the caller context and the `fields` as written (policy-types.ts). With the defaults (any table, any
// context) each is the loose shape the runtime checks at setup.
import type { InferInsertModel, SQL, Table } from 'drizzle-orm';
import type { CrudActionName } from '../actions';
import type { AnyContext } from './context';
import type { OperatorName } from './operators';
import type { RelationOption } from './relation-options';
import type {
  AuthorizeArgs,
  CreateDataOf,
  FieldPolicies,
  FieldPolicy,
  OnlyColumns,
  ResourceTypes,
  RowOf,
  ScopeArgs,
  ScopeFunctionOf,
  UpdateDataOf,
} from './policy-types';

export type { RelationOption } from './relation-options';

export type { AnyContext } from './context';
export type { AuthorizeArgs, FieldPolicy, ScopeArgs, ScrubArgs } from './policy-types';
export type { JsonSchema } from '../json-schema';

/** A `where` value as the runtime reads it (CONTRACT §2): field conditions plus AND / OR / NOT. */
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

/** A scope as the runtime calls it: any context, a loose `where`. */
export type ScopeFunction = (args: ScopeArgs<AnyContext>) => Where | SQL | undefined | Promise<Where | SQL | undefined>;

export interface AccessRules<TTable extends Table = Table, TCtx = AnyContext> {
  authorize?: (args: AuthorizeArgs<TCtx>) => boolean | Promise<boolean>;
  /** A condition ANDed into every query; may name any column, hidden ones included. */
  scope?: ScopeFunctionOf<TTable, TCtx>;
}

type Awaitable<T> = T | Promise<T>;

/**
 * CRUD hooks (CONTRACT §3): `data` is what Drizzle inserts or updates (the writable fields, Date and bigint as such);
 * beforeCreate may answer the row to insert, beforeUpdate the changes, either setting columns outside `fields`.
 */
export interface CrudHooks<T extends ResourceTypes = LooseTypes> {
  beforeCreate?: (args: { data: CreateDataOf<T>; ctx: T['ctx'] }) => Awaitable<InsertedRow<T> | void>;
  beforeUpdate?: (args: { id: unknown; data: UpdateDataOf<T>; ctx: T['ctx'] }) => Awaitable<Partial<InsertedRow<T>> | void>;
  afterCreate?: (args: { result: RowOf<T>; ctx: T['ctx'] }) => Awaitable<void>;
  afterUpdate?: (args: { id: unknown; result: RowOf<T>; ctx: T['ctx'] }) => Awaitable<void>;
  afterDelete?: (args: { id: unknown; result: { success: true }; ctx: T['ctx'] }) => Awaitable<void>;
}
type InsertedRow<T extends ResourceTypes> = InferInsertModel<T['table']>;

/** The hooks as the runtime calls them: any context, data and rows as plain records. */
export interface RuntimeHooks {
  beforeCreate: (args: { data: Record<string, unknown>; ctx: AnyContext }) => Awaitable<Record<string, unknown> | void>;
  beforeUpdate: (args: { id: unknown; data: Record<string, unknown>; ctx: AnyContext }) => Awaitable<Record<string, unknown> | void>;
  afterCreate: (args: { result: Record<string, unknown>; ctx: AnyContext }) => Awaitable<void>;
  afterUpdate: (args: { id: unknown; result: Record<string, unknown>; ctx: AnyContext }) => Awaitable<void>;
  afterDelete: (args: { id: unknown; result: { success: true }; ctx: AnyContext }) => Awaitable<void>;
}

/** The types of a resource nothing is known about: any table, any context, any policy. */
export interface LooseTypes {
  table: Table;
  ctx: AnyContext;
  fields: Record<string, FieldPolicy>;
  operations: Operations;
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
export type RouteSetting<TTable extends Table = Table, TCtx = AnyContext> = false | RouteOptions<TTable, TCtx>;

export interface RouteOptions<TTable extends Table = Table, TCtx = AnyContext> {
  /** `/`-separated segments below `${prefix}/<resource>`; get, update and delete need `:id`. Default: the action's path. */
  path?: string;
  /** ANDed with `access.scope` for calls through this route; may name any column, hidden ones included. */
  scope?: ScopeFunctionOf<TTable, TCtx>;
}

/** `operations`: `false` switches every action off; an action set to `false` does not exist (spec §4.1 rule 2). */
export type Operations = false | Partial<Record<CrudActionName, boolean>>;

/**
 * The crud options. Inside `resource.use(crud({ … }))` TypeScript knows the table and the context: `fields` keys must
 * be columns, `ctx` is the caller context everywhere, hook `data` the table's insert or update type.
 */
export interface CrudOptions<TTable extends Table = Table, TCtx = AnyContext, TFields = FieldPolicies<TTable, TCtx>, TOperations = Operations, TRelations = Record<string, RelationOption>> {
  access: 'public' | AccessRules<TTable, TCtx>;
  fields?: TFields & FieldPolicies<TTable, TCtx> & OnlyColumns<TTable, TFields>;
  operations?: TOperations;
  defaultLimit?: number;
  maxLimit?: number;
  /** createMany: the most items one call may create (CONTRACT §10, default 100). */
  maxBatch?: number;
  /** updateMany / deleteMany: when more rows would change, nothing does and the call is a VALIDATION_ERROR (default 1000). */
  maxAffected?: number;
  routes?: Partial<Record<CrudActionName, RouteSetting<TTable, TCtx>>>;
  hooks?: CrudHooks<{ table: TTable; ctx: TCtx; fields: TFields; operations: TOperations }>;
  /**
   * CONTRACT §9: the relations clients may include and (with `filter: true`) filter through, read through the
   * related resource's own policy, access, scope and scrub. Relations not listed do not exist for clients.
   *
   * @example
   * relations: { author: { resource: authorsResource, filter: true }, comments: { resource: () => commentsResource, maxLimit: 20 } }
   */
  relations?: TRelations & Record<string, RelationOption>;
}
