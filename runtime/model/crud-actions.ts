// The typed actions `resource.use(crud(...))` attaches (CONTRACT §2), as TypeScript sees them: inputs and rows in
// their JSON form, typed by the field policy (policy-types.ts). One map of every action (CrudActionMap), from which a
// resource gets the actions its `operations` leave on: relations and bulk actions add their entries to the map.
import type { InferSelectModel, Table } from 'drizzle-orm';
import type { Context } from './context';
import type { OperatorName } from './operators';
import type { Where } from './options';
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

/** CONTRACT §9: the relations to include, each `true` or a list-like input read through the related resource's policy. */
export interface IncludeInput {
  [relation: string]: true | { select?: string[]; where?: Where; orderBy?: { field: string; direction?: 'asc' | 'desc' }[]; limit?: number; include?: IncludeInput };
}

type Id = string | number;

/** list's and findOne's input: `select` narrows the row to `TSelect`. */
export interface ListInputOf<T extends ResourceTypes, TSelect extends ReadableKey<T> = ReadableKey<T>> {
  select?: readonly TSelect[];
  where?: WhereOf<T>;
  orderBy?: readonly OrderByOf<T>[];
  limit?: number;
  offset?: number;
  includeTotal?: boolean;
  /** Related rows to add to each row (relations declared with the crud option `relations`). */
  include?: IncludeInput;
}

/** list's input (CONTRACT §10): `cursor` pages by keyset, `true` for the first page, then the `nextCursor` answered. */
export interface ListPageInputOf<T extends ResourceTypes, TSelect extends ReadableKey<T> = ReadableKey<T>> extends ListInputOf<T, TSelect> {
  cursor?: string | true;
}

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
  list<TSelect extends ReadableKey<T> = ReadableKey<T>>(
    call: CrudCall<ListPageInputOf<T, TSelect> & { cursor: string | true }, T['ctx']>,
  ): Promise<PageOf<RowOf<T, TSelect>> & { nextCursor: string | null }>;
  list<TSelect extends ReadableKey<T> = ReadableKey<T>>(call?: OptionalCrudCall<ListPageInputOf<T, TSelect>, T['ctx']>): Promise<PageOf<RowOf<T, TSelect>>>;
  get<TSelect extends ReadableKey<T> = ReadableKey<T>>(call: CrudCall<{ id: Id; select?: readonly TSelect[]; include?: IncludeInput }, T['ctx']>): Promise<RowOf<T, TSelect>>;
  findOne<TSelect extends ReadableKey<T> = ReadableKey<T>>(call?: OptionalCrudCall<ListInputOf<T, TSelect>, T['ctx']>): Promise<RowOf<T, TSelect> | null>;
  create(call: CrudCall<CreateInputOf<T>, T['ctx']>): Promise<RowOf<T>>;
  /** `ifMatch` (CONTRACT §10): the row's ETag as read (`etagOf(row)`); PRECONDITION_FAILED when the row changed since. */
  update(call: CrudCall<{ id: Id; data: UpdateInputOf<T>; ifMatch?: string }, T['ctx']>): Promise<RowOf<T>>;
  delete(call: CrudCall<{ id: Id; ifMatch?: string }, T['ctx']>): Promise<{ success: true }>;
  count(call?: OptionalCrudCall<{ where?: WhereOf<T> }, T['ctx']>): Promise<{ count: number }>;
  exists(call?: OptionalCrudCall<{ where?: WhereOf<T> }, T['ctx']>): Promise<{ exists: boolean }>;
  /** CONTRACT §10, when `operations.createMany` is on: every item created in one transaction, or none. */
  createMany(call: CrudCall<{ items: CreateInputOf<T>[] }, T['ctx']>): Promise<{ items: RowOf<T>[] }>;
  /** CONTRACT §10, when `operations.updateMany` is on: `data` set on every row matching a non-empty `where`, in one transaction. */
  updateMany(call: CrudCall<{ where: WhereOf<T>; data: UpdateInputOf<T> }, T['ctx']>): Promise<{ count: number }>;
  /** CONTRACT §10, when `operations.deleteMany` is on: every row matching a non-empty `where` deleted, in one transaction. */
  deleteMany(call: CrudCall<{ where: WhereOf<T> }, T['ctx']>): Promise<{ count: number }>;
  /** CONTRACT §10, when `operations.upsert` is on: the row with this id created, or its updatable fields set. */
  upsert(call: CrudCall<{ id: Id; data: Partial<CreateInputOf<T>>; ifMatch?: string }, T['ctx']>): Promise<RowOf<T>>;
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

/** The actions a resource has, each typed by its policy; switched-off ones do not exist. */
export type CrudActionsOf<T extends ResourceTypes> = Pick<CrudActionMap<T>, EnabledAction<T['operations']>>;

/** Every column readable, writable, sortable and filterable by every operator: the types of a table whose policy is not known. */
type OpenPolicy<TTable extends Table> = {
  table: TTable;
  ctx: Context;
  fields: { [K in keyof InferSelectModel<TTable>]: { read: true; create: true; update: true; sort: true; filter: readonly OperatorName[] } };
  operations: undefined;
};

/** The actions of a table whose policy is not known (every column open): prefer `typeof resource`, which knows its policy. */
export type CrudActions<TTable extends Table> = CrudActionsOf<OpenPolicy<TTable>>;

/** list's input for a table whose policy is not known. */
export type ListInput<TTable extends Table> = ListPageInputOf<OpenPolicy<TTable>>;
