// What a field policy means for TypeScript (issue 31): from the table and the `fields` option as written, the row a
// caller gets (readable fields, scrubbed ones unknown), the `where` it may write (allowed operators per field), what it
// may sort by and the data it may create or update. Types only; the runtime enforces the same policy
// (field-policy.ts, input-schemas.ts), and the generated client.ts types it the same way from the JSON Schemas.
import type { InferSelectModel, SQL, Table } from 'drizzle-orm';
import type { CrudActionName } from '../actions';
import type { JsonSchema } from '../json-schema';
import type { ColumnOperator, ColumnUpdate, JsonValue } from './column-rules';
import type { OperatorName, OPERATORS } from './operators';

/** The table's TypeScript property names (`createdAt`, not `created_at`); any name for a table typed `any`. */
export type ColumnKey<TTable extends Table> = 0 extends 1 & TTable ? string : keyof InferSelectModel<TTable> & string;

export type { JsonValue } from './column-rules';

/** `{ a: 1 } & { b?: 2 }` shown as one object type. */
export type Simplify<T> = { [K in keyof T]: T[K] } & {};

export interface ScrubArgs<TCtx = Record<string, any>, TValue = unknown> {
  /** The stored value, already in its JSON form (Date as ISO string, bigint as decimal string). */
  value: TValue;
  /** The response row before any scrub ran (selected readable fields, JSON form). */
  row: Record<string, unknown>;
  ctx: TCtx;
}

/** Per-column field policy (spec §2.4). A column that is not listed is hidden everywhere. */
export interface FieldPolicy<TCtx = Record<string, any>, TValue = unknown, TOperator extends OperatorName = OperatorName, TUpdate extends boolean = boolean> {
  read?: boolean;
  create?: boolean;
  /** Never on the primary key (spec §7). */
  update?: TUpdate;
  /** contains / startsWith / endsWith only on text columns (spec §2.4 rule 1). */
  filter?: readonly TOperator[];
  sort?: boolean;
  schema?: JsonSchema;
  scrub?: (args: ScrubArgs<TCtx, TValue>) => unknown;
}

/**
 * The `fields` option of a table: a policy per column, each `scrub` seeing that column's JSON value, `filter` taking
 * the operators its column takes and `update` refused on the primary key, as the runtime refuses them at setup.
 */
export type FieldPolicies<TTable extends Table, TCtx> = {
  [K in ColumnKey<TTable>]?: FieldPolicy<TCtx, JsonValue<InferSelectModel<TTable>[K]>, ColumnOperator<ColumnOf<TTable, K>>, ColumnUpdate<ColumnOf<TTable, K>>>;
};

/** A column of the table by property name (any for a table typed `any`). */
type ColumnOf<TTable extends Table, K> = 0 extends 1 & TTable ? any : K extends keyof TTable['_']['columns'] ? TTable['_']['columns'][K] : any;

/** `fields` keys that are not columns: each must be `never`, so `fields.titel` does not compile. */
export type OnlyColumns<TTable extends Table, TFields> = { [K in Exclude<keyof TFields, ColumnKey<TTable>>]: never };

/**
 * What a resource's actions are typed from: the table, the caller context, the `fields` and `operations` options
 * as written. Relations (CONTRACT §9) and bulk actions (§10) read the same bag.
 */
export interface ResourceTypes {
  table: Table;
  ctx: unknown;
  fields: unknown;
  operations: unknown;
  /** The `relations` option as written (CONTRACT §9): those with `filter: true` may appear in a `where`. */
  relations?: unknown;
  /** The key column given to `service.resource({ id })`: types `id` (column-rules.ts ColumnId). */
  idColumn?: unknown;
  /** The table's Drizzle `relations()` in the db's schema: say which relations are to-one or to-many (include-types.ts). */
  drizzleRelations?: unknown;
}

type PolicyOf<T extends ResourceTypes, K> = K extends keyof T['fields'] ? NonNullable<T['fields'][K]> : never;

/** The policy turns `flag` on: `true` (or a `boolean` that may be true). */
type IsOn<TPolicy, TFlag extends string> = TFlag extends keyof TPolicy ? (true extends TPolicy[TFlag] ? true : false) : false;

/** The fields named in `fields` (only columns may be) whose policy turns `flag` on. */
type KeysWith<T extends ResourceTypes, TFlag extends string> = {
  [K in keyof T['fields'] & string]-?: IsOn<PolicyOf<T, K>, TFlag> extends true ? K : never;
}[keyof T['fields'] & string];

/** Fields a caller may read, select, and get in rows. */
export type ReadableKey<T extends ResourceTypes> = KeysWith<T, 'read'>;
/** Fields `orderBy` may name. */
export type SortableKey<T extends ResourceTypes> = KeysWith<T, 'sort'>;
export type CreatableKey<T extends ResourceTypes> = KeysWith<T, 'create'>;
export type UpdatableKey<T extends ResourceTypes> = KeysWith<T, 'update'>;

type Selected<T extends ResourceTypes> = InferSelectModel<T['table']>;

/** A readable field's value in a row: its JSON form, or unknown when `scrub` may replace it. */
type RowValue<T extends ResourceTypes, K extends string> = PolicyOf<T, K> extends { scrub: (...args: any[]) => unknown } ? unknown : JsonValue<Selected<T>[K & keyof Selected<T>]>;

/** A response row: the readable fields, or the `select`ed ones; every one present. */
export type RowOf<T extends ResourceTypes, TSelect extends ReadableKey<T> = ReadableKey<T>> = { [K in TSelect]: RowValue<T, K> };

/** The operators the policy allows on a field. */
export type FilterOperator<T extends ResourceTypes, K> = PolicyOf<T, K> extends { filter?: infer TOps } ? (TOps extends readonly (infer TOp)[] ? TOp & OperatorName : never) : never;

type FilterableKey<T extends ResourceTypes> = { [K in keyof T['fields'] & string]-?: [FilterOperator<T, K>] extends [never] ? never : K }[keyof T['fields'] & string];

/** The value an operator takes (model/operators.ts's `value` column, CONTRACT §2). */
type OperatorKind<TOp extends OperatorName> = Extract<(typeof OPERATORS)[number], { name: TOp }>['value'];
export type OperatorValue<TOp extends OperatorName, V> = {
  scalar: V;
  list: readonly V[];
  pair: readonly [V, V];
  text: string;
  flag: true;
}[OperatorKind<TOp>];

/** One field's condition: the allowed operators, each with its value. */
export type FieldCondition<T extends ResourceTypes, K extends string> = {
  [TOp in FilterOperator<T, K>]?: OperatorValue<TOp, NonNullable<JsonValue<Selected<T>[K & keyof Selected<T>]>>>;
};

/** AND / OR / NOT around any `where` (at most 5 deep, checked at run time). */
export interface WhereLogic<TWhere> {
  AND?: readonly TWhere[];
  OR?: readonly TWhere[];
  NOT?: TWhere;
}

/** A condition through a relation; its inner `where`s are the related resource's, checked by its policy at run time. */
export interface RelationCondition {
  is?: Record<string, unknown>;
  isNot?: Record<string, unknown>;
  some?: Record<string, unknown>;
  every?: Record<string, unknown>;
  none?: Record<string, unknown>;
}

/** The relations declared with `filter: true`: a `where` may name them (CONTRACT §9). */
type FilterableRelation<T extends ResourceTypes> = {
  [K in keyof T['relations'] & string]: T['relations'][K] extends { filter: true } ? K : never;
}[keyof T['relations'] & string];

/**
 * A caller's `where` (CONTRACT §2): filterable fields with their allowed operators, relations with `filter: true`
 * (is / isNot / some / every / none: the related resource's policy checks their inner `where` at run time), and
 * AND / OR / NOT.
 */
export type WhereOf<T extends ResourceTypes> = { [K in FilterableKey<T>]?: FieldCondition<T, K> } & { [K in FilterableRelation<T>]?: RelationCondition } & WhereLogic<WhereOf<T>>;

/** A scope's `where`: any column, hidden ones included, any operator (CONTRACT §3). */
export type ScopeWhere<TTable extends Table> = { [K in ColumnKey<TTable>]?: Partial<Record<OperatorName, unknown>> } & WhereLogic<ScopeWhere<TTable>>;

/** `orderBy` entries: sortable fields only. */
export interface OrderByOf<T extends ResourceTypes> {
  field: SortableKey<T>;
  direction?: 'asc' | 'desc';
}

/** The columns of the resource's table, by property name. */
type ColumnsOf<T extends ResourceTypes> = T['table']['_']['columns'];

/** NOT NULL without a default: create must carry it (drizzle's own rule for its insert type). Any column of an `any` table may be left out. */
type IsRequiredOnCreate<TColumn> = 0 extends 1 & TColumn ? false : TColumn extends { _: { notNull: true; hasDefault: false } } ? true : false;

type RequiredCreatable<T extends ResourceTypes> = { [K in CreatableKey<T>]-?: IsRequiredOnCreate<ColumnsOf<T>[K]> extends true ? K : never }[CreatableKey<T>];

/** A writable field's value in JSON form (null where the column is nullable). */
type WriteValue<T extends ResourceTypes, K extends string> = JsonValue<Selected<T>[K & keyof Selected<T>]>;

/** create's input: the creatable fields, in JSON form; the NOT NULL ones without a default required. */
export type CreateInputOf<T extends ResourceTypes> = Simplify<
  { [K in RequiredCreatable<T>]: WriteValue<T, K> } & { [K in Exclude<CreatableKey<T>, RequiredCreatable<T>>]?: WriteValue<T, K> }
>;

/** update's `data`: any of the updatable fields, in JSON form. */
export type UpdateInputOf<T extends ResourceTypes> = { [K in UpdatableKey<T>]?: WriteValue<T, K> };

/** A writable field's value as Drizzle writes it (Date, bigint, Buffer). */
type DataValue<T extends ResourceTypes, K extends string> = Selected<T>[K & keyof Selected<T>];

/** beforeCreate's `data`: the creatable fields as Drizzle inserts them (Date, bigint, Buffer). */
export type CreateDataOf<T extends ResourceTypes> = Simplify<
  { [K in RequiredCreatable<T>]: DataValue<T, K> } & { [K in Exclude<CreatableKey<T>, RequiredCreatable<T>>]?: DataValue<T, K> }
>;

/** beforeUpdate's `data`: the updatable fields as Drizzle updates them. */
export type UpdateDataOf<T extends ResourceTypes> = { [K in UpdatableKey<T>]?: DataValue<T, K> };

export interface AuthorizeArgs<TCtx = Record<string, any>> {
  ctx: TCtx;
  /** The crud action name: 'list', 'get', 'findOne', 'create', 'update', 'delete', 'count' or 'exists'. */
  action: CrudActionName;
  input: unknown;
  /** The resource name. */
  resource: string;
}

export interface ScopeArgs<TCtx = Record<string, any>> {
  ctx: TCtx;
  action: CrudActionName;
}

/** A condition on the rows a call may reach (CONTRACT §3): a `where` (any column, hidden ones included), Drizzle SQL, or undefined for none. */
export type ScopeFunctionOf<TTable extends Table, TCtx> = (args: ScopeArgs<TCtx>) => ScopeWhere<TTable> | SQL | undefined | Promise<ScopeWhere<TTable> | SQL | undefined>;
