// CONTRACT §9 for TypeScript: what `include` may name (the declared relations only, each `true` or an entry read
// through the related resource's policy) and the rows it adds (to-one: the row or null; to-many: an array). The
// related resource's types come from the `relations` option as written; to-one or to-many from the table's Drizzle
// `relations()` in the db's schema. Types only: relation-input.ts checks the same at run time.
import type { Many, One, Table } from 'drizzle-orm';
import type { Where } from './options';
import type { OrderByOf, ReadableKey, ResourceTypes, RowOf, Simplify, WhereOf } from './policy-types';

/** Where a resource with crud actions carries its policy types, for the resources that include it; never set at run time. */
export declare const resourceTypes: unique symbol;

/** What an include entry takes when the related resource's types are not known: checked at run time only. */
export interface IncludeInput {
  [relation: string]: true | { select?: readonly string[]; where?: Where; orderBy?: readonly { field: string; direction?: 'asc' | 'desc' }[]; limit?: number; include?: IncludeInput };
}

/** The relations a resource declares (CONTRACT §9: any other does not exist for clients). */
export type RelationName<T extends ResourceTypes> = keyof T['relations'] & string;

/** The resource a relation option names (directly, or returned by a function for cycles). */
type TargetOf<TOption> = TOption extends { resource: infer R } ? (R extends () => infer F ? F : R) : never;

/**
 * The related resource's policy types, or never when they cannot be reached: a resource typed `any` or `object`
 * (a function annotated `(): object =>`, as resources that name each other need).
 */
export type RelatedTypes<T extends ResourceTypes, K> = K extends keyof T['relations'] ? TypesOf<TargetOf<T['relations'][K]>> : never;
type TypesOf<R> = 0 extends 1 & R
  ? never
  : R extends { readonly [resourceTypes]?: infer TTypes } ? (unknown extends TTypes ? never : TTypes extends ResourceTypes ? TTypes : never) : never;

/** The table's relations as Drizzle's `relations()` declare them in the db's schema (matched by table name); unknown without one. */
export type DrizzleRelationsOf<TDb, TTable extends Table> = 0 extends 1 & TDb
  ? unknown
  : TDb extends { _: { schema: infer TSchema } }
    ? NonNullable<TSchema> extends Record<string, { dbName: string; relations: unknown }>
      ? NeverAsUnknown<{ [K in keyof NonNullable<TSchema>]: NonNullable<TSchema>[K]['dbName'] extends TTable['_']['name'] ? NonNullable<TSchema>[K]['relations'] : never }[keyof NonNullable<TSchema>]>
      : unknown
    : unknown;
type NeverAsUnknown<T> = [T] extends [never] ? unknown : T;

/** to-one or to-many as the table's Drizzle relation of the same name says; unknown without one (the join is a foreign key the types cannot see). */
type Kind<T extends ResourceTypes, K> = K extends keyof T['drizzleRelations']
  ? T['drizzleRelations'][K] extends Many<any> ? 'many' : T['drizzleRelations'][K] extends One<any, any> ? 'one' : 'unknown'
  : 'unknown';

/** An include entry of a to-one relation: orderBy and limit apply to to-many relations only. */
interface ToOneEntry<R extends ResourceTypes> {
  select?: readonly ReadableKey<R>[];
  where?: WhereOf<R>;
  include?: IncludeOf<R>;
  orderBy?: never;
  limit?: never;
}

/** An include entry of a to-many relation: a list of the related resource, its limit at most the relation's maxLimit. */
interface ToManyEntry<R extends ResourceTypes> {
  select?: readonly ReadableKey<R>[];
  where?: WhereOf<R>;
  orderBy?: readonly OrderByOf<R>[];
  limit?: number;
  include?: IncludeOf<R>;
}

type EntryOf<T extends ResourceTypes, K> = [RelatedTypes<T, K>] extends [never]
  ? Exclude<IncludeInput[string], true>
  : Kind<T, K> extends 'one' ? ToOneEntry<RelatedTypes<T, K>> : ToManyEntry<RelatedTypes<T, K>>;

/** CONTRACT §9 `include`: declared relations only, each `true` or an entry typed by the related resource's policy. */
export type IncludeOf<T extends ResourceTypes> = string extends RelationName<T> ? IncludeInput : { [K in RelationName<T>]?: true | EntryOf<T, K> };

/**
 * The keys of an inferred `include` that its shape does not have, at every depth, as `never`: TypeScript does not check
 * an inferred object literal for unknown keys (a misspelt relation, field or operator), so this walks the literal. An
 * open shape (`unknown`, or keyed by any string: a relation filter's inner `where`, checked at run time) is not walked.
 */
type Exact<TShape, TValue> = TValue extends readonly (infer TItem)[]
  ? readonly Exact<ItemOf<TShape>, TItem>[]
  : TValue extends object
    ? IsOpen<TShape> extends true
      ? TValue
      : { [K in keyof TValue]: K extends KeysOf<TShape> ? Exact<PropertyOf<TShape, K>, TValue[K]> : never }
    : TValue;
type IsOpen<TShape> = unknown extends TShape ? true : string extends KeysOf<TShape> ? true : false;
type KeysOf<TShape> = TShape extends readonly unknown[] ? never : TShape extends object ? keyof TShape : never;
type PropertyOf<TShape, K> = TShape extends object ? (K extends keyof TShape ? Exclude<TShape[K], undefined | null> : never) : never;
type ItemOf<TShape> = TShape extends readonly (infer TItem)[] ? TItem : never;

/**
 * The input's `include`: refused where the resource declares no relation (its input schema has no `include`); an
 * inferred one checked for unknown keys; the whole IncludeOf (a type written out, not inferred) and a loose one as they are.
 */
export type IncludeParam<T extends ResourceTypes, TInclude> = [RelationName<T>] extends [never]
  ? never
  : string extends RelationName<T>
    ? TInclude
    : IncludeOf<T> extends TInclude ? IncludeOf<T> : TInclude & Exact<IncludeOf<T>, TInclude>;

/** One included value: the related row (or null) to-one, an array to-many, either when the types cannot tell. */
type Wrapped<TKind, TRow> = TKind extends 'one' ? TRow | null : TKind extends 'many' ? TRow[] : TRow | TRow[] | null;

/** The related row an entry reads: its `select`ed fields (all readable by default) and its own includes. */
type RelatedRow<R, TEntry> = [R] extends [never]
  ? Record<string, unknown>
  : R extends ResourceTypes
    ? WithIncluded<RowOf<R, TEntry extends { select: readonly (infer S extends ReadableKey<R>)[] } ? S : ReadableKey<R>>, R, TEntry extends { include: infer TNested } ? TNested : {}>
    : never;

type IncludedOf<T extends ResourceTypes, TInclude> = {
  [K in keyof TInclude & RelationName<T>]-?:
    | Wrapped<Kind<T, K>, RelatedRow<RelatedTypes<T, K>, NonNullable<TInclude[K]>>>
    | (undefined extends TInclude[K] ? undefined : never);
};

/**
 * A row with the relations the input included (CONTRACT §9); the row itself when it included none, and when `TInclude`
 * is the whole IncludeOf: what `ReturnType<typeof resource.get>` instantiates a call's include with (its constraint).
 */
export type WithIncluded<TRow, T extends ResourceTypes, TInclude> = [keyof TInclude & RelationName<T>] extends [never]
  ? TRow
  : [IncludeOf<T>] extends [TInclude]
    ? TRow
    : Simplify<TRow & IncludedOf<T, TInclude>>;
