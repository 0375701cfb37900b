// The typed actions `resource.use(crud(...))` attaches (CONTRACT §2), as TypeScript sees them: inputs and rows in
// their JSON form, typed by the field policy (policy-types.ts). One map of every action (CrudActionMap), from which a
// resource gets the actions its `operations` leave on: relations and bulk actions add their entries to the map.
import type { InferSelectModel, Table } from 'drizzle-orm';
import type { ColumnId } from './column-rules';
import type { Context } from './context';
import type { IncludeOf, IncludeParam, resourceTypes, WithIncluded } from './include-types';
import type { OperatorName } from './operators';
import type { RelationOption } from './relation-options';
import type {
  CreateInputOf,
  JsonValue,
  OrderByOf,
  ReadableKey,
  ResourceTypes,
  RowOf,
  UpdateInputOf,
  WhereOf,
} from './policy-types';

/** A table's full row in JSON form, every key optional: what a resource without a known policy may answer. */
export type Row<TTable extends Table> = { [K in keyof InferSelectModel<TTable>]?: JsonValue<InferSelectModel<TTable>[K]> };

export type { IncludeInput, IncludeOf } from './include-types';

/** The `id` a call takes: the key column's JSON form (string | number where the key is not known). */
type Id<T extends ResourceTypes> = ColumnId<T['idColumn']>;

/** list's and findOne's input: `select` narrows the row to `TSelect`, `include` adds the relations it names. */
export interface ListInputOf<T extends ResourceTypes, TSelect extends ReadableKey<T> = ReadableKey<T>, TInclude = IncludeOf<T>> {
  select?: readonly TSelect[];
  where?: WhereOf<T>;
  orderBy?: readonly OrderByOf<T>[];
  limit?: number;
  offset?: number;
  includeTotal?: boolean;
  /** Related rows to add to each row (CONTRACT §9: relations declared with the crud option `relations`). */
  include?: IncludeParam<T, TInclude>;
}

/** list's input (CONTRACT §10): `cursor` pages by keyset, `true` for the first page, then the `nextCursor` answered. */
export interface ListPageInputOf<T extends ResourceTypes, TSelect extends ReadableKey<T> = ReadableKey<T>, TInclude = IncludeOf<T>> extends ListInputOf<T, TSelect, TInclude> {
  cursor?: string | true;
}

/** A row read by list, get or findOne: the selected fields and the included relations. */
type ReadRow<T extends ResourceTypes, TSelect extends ReadableKey<T>, TInclude> = WithIncluded<RowOf<T, TSelect>, T, TInclude>;

/** A page of rows; `nextCursor` when the input asked for a cursor. */
export interface PageOf<TRow> {
  items: TRow[];
  total?: number;
  nextCursor?: string | null;
}

/** An in-process call: the input, and the caller context (default `{}`). */
export interface CrudCall<TInput, TCtx = Context> {
  input: TInput;
  ctx?: TCtx;
}
export type OptionalCrudCall<TInput, TCtx = Context> = Partial<CrudCall<TInput, TCtx>>;

/** Every crud action, typed from the resource's types; a resource has those its `operations` leave on. */
export interface CrudActionMap<T extends ResourceTypes> {
  /** With a `cursor` (CONTRACT §10), the answer has `nextCursor`: the next page's cursor, null on the last page. */
  list<TSelect extends ReadableKey<T> = ReadableKey<T>, const TInclude extends IncludeOf<T> = {}>(
    call: CrudCall<ListPageInputOf<T, TSelect, TInclude> & { cursor: string | true }, T['ctx']>,
  ): Promise<PageOf<ReadRow<T, TSelect, TInclude>> & { nextCursor: string | null }>;
  list<TSelect extends ReadableKey<T> = ReadableKey<T>, const TInclude extends IncludeOf<T> = {}>(
    call?: OptionalCrudCall<ListPageInputOf<T, TSelect, TInclude>, T['ctx']>,
  ): Promise<PageOf<ReadRow<T, TSelect, TInclude>>>;
  get<TSelect extends ReadableKey<T> = ReadableKey<T>, const TInclude extends IncludeOf<T> = {}>(
    call: CrudCall<{ id: Id<T>; select?: readonly TSelect[]; include?: IncludeParam<T, TInclude> }, T['ctx']>,
  ): Promise<ReadRow<T, TSelect, TInclude>>;
  findOne<TSelect extends ReadableKey<T> = ReadableKey<T>, const TInclude extends IncludeOf<T> = {}>(
    call?: OptionalCrudCall<ListInputOf<T, TSelect, TInclude>, T['ctx']>,
  ): Promise<ReadRow<T, TSelect, TInclude> | null>;
  create(call: CrudCall<CreateInputOf<T>, T['ctx']>): Promise<RowOf<T>>;
  /** `ifMatch` (CONTRACT §10): the row's ETag as read (`etagOf(row)`); PRECONDITION_FAILED when the row changed since. */
  update(call: CrudCall<{ id: Id<T>; data: UpdateInputOf<T>; ifMatch?: string }, T['ctx']>): Promise<RowOf<T>>;
  delete(call: CrudCall<{ id: Id<T>; ifMatch?: string }, T['ctx']>): Promise<{ success: true }>;
  count(call?: OptionalCrudCall<{ where?: WhereOf<T> }, T['ctx']>): Promise<{ count: number }>;
  exists(call?: OptionalCrudCall<{ where?: WhereOf<T> }, T['ctx']>): Promise<{ exists: boolean }>;
  /** CONTRACT §10, when `operations.createMany` is on: every item created in one transaction, or none. */
  createMany(call: CrudCall<{ items: CreateInputOf<T>[] }, T['ctx']>): Promise<{ items: RowOf<T>[] }>;
  /** CONTRACT §10, when `operations.updateMany` is on: `data` set on every row matching a non-empty `where`, in one transaction. */
  updateMany(call: CrudCall<{ where: WhereOf<T>; data: UpdateInputOf<T> }, T['ctx']>): Promise<{ count: number }>;
  /** CONTRACT §10, when `operations.deleteMany` is on: every row matching a non-empty `where` deleted, in one transaction. */
  deleteMany(call: CrudCall<{ where: WhereOf<T> }, T['ctx']>): Promise<{ count: number }>;
  /** CONTRACT §10, when `operations.upsert` is on: the row with this id created, or its updatable fields set. */
  upsert(call: CrudCall<{ id: Id<T>; data: Partial<CreateInputOf<T>>; ifMatch?: string }, T['ctx']>): Promise<RowOf<T>>;
}

/** What a crud resource's actions are typed from (service.ts Resource.use): a ResourceTypes of the declaration and plugin. */
export interface CrudTypes<TTable extends Table, TContext, TFields, TOperations, TRelations, TId, TDrizzleRelations> {
  table: TTable;
  ctx: TContext;
  fields: TFields;
  operations: TOperations;
  relations: TRelations;
  idColumn: TId;
  drizzleRelations: TDrizzleRelations;
}

/** Whether each action is on when `operations` does not name it (CONTRACT §10: new actions are off unless named). */
export interface CrudActionDefaults {
  list: true;
  get: true;
  findOne: true;
  create: true;
  update: true;
  delete: true;
  count: true;
  exists: true;
}

type IsEnabled<TOperations, K extends keyof CrudActionMap<ResourceTypes>> = [TOperations] extends [false]
  ? false
  : K extends keyof TOperations
    ? TOperations[K] extends false
      ? false
      : TOperations[K] extends true
        ? true
        : K extends keyof CrudActionDefaults ? CrudActionDefaults[K] : false
    : K extends keyof CrudActionDefaults ? CrudActionDefaults[K] : false;

/** The actions `operations` leaves on (all eight without it). */
export type EnabledAction<TOperations> = {
  [K in keyof CrudActionMap<ResourceTypes>]: IsEnabled<TOperations, K> extends true ? K : never;
}[keyof CrudActionMap<ResourceTypes>];

/** The actions a resource has, each typed by its policy; switched-off ones do not exist. Its types travel with it, for the resources that include it. */
export type CrudActionsOf<T extends ResourceTypes> = Pick<CrudActionMap<T>, EnabledAction<T['operations']>> & { readonly [resourceTypes]?: T };

/** Every column readable, writable, sortable and filterable by every operator: the types of a table whose policy is not known. */
type OpenPolicy<TTable extends Table> = {
  table: TTable;
  ctx: Context;
  fields: { [K in keyof InferSelectModel<TTable>]: { read: true; create: true; update: true; sort: true; filter: readonly OperatorName[] } };
  operations: undefined;
  relations: Record<string, RelationOption>;
};

/** The actions of a table whose policy is not known (every column open): prefer `typeof resource`, which knows its policy. */
export type CrudActions<TTable extends Table> = CrudActionsOf<OpenPolicy<TTable>>;

/** list's input for a table whose policy is not known. */
export type ListInput<TTable extends Table> = ListPageInputOf<OpenPolicy<TTable>>;
