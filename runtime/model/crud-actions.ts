// The typed actions `resource.use(crud(...))` attaches (CONTRACT §2), as TypeScript sees them: inputs and rows
// in their JSON form. Types only: the resource declares what `use` returns, the crud plugin what it builds.
import type { InferSelectModel, Table } from 'drizzle-orm';
import type { Context, Where } from './options';

/** A column value as it travels in JSON (CONTRACT §2 Row). */
type JsonValue<V> = V extends Date ? string : V extends bigint ? string : V extends Uint8Array ? string : V;

/** A response row: readable fields (or the selected subset), in their JSON form. */
export type Row<TTable extends Table> = { [K in keyof InferSelectModel<TTable>]?: JsonValue<InferSelectModel<TTable>[K]> };
type FieldName<TTable extends Table> = keyof InferSelectModel<TTable> & string;

/** CONTRACT §9: the relations to include, each `true` or a list-like input read through the related resource's policy. */
export interface IncludeInput {
  [relation: string]: true | { select?: string[]; where?: Where; orderBy?: { field: string; direction?: 'asc' | 'desc' }[]; limit?: number; include?: IncludeInput };
}

export interface ListInput<TTable extends Table> {
  select?: FieldName<TTable>[];
  where?: Where;
  orderBy?: { field: FieldName<TTable>; direction?: 'asc' | 'desc' }[];
  limit?: number;
  offset?: number;
  includeTotal?: boolean;
  /** Related rows to add to each row (relations declared with the crud option `relations`). */
  include?: IncludeInput;
}

export interface CrudCall<TInput> {
  input: TInput;
  ctx?: Context;
}
export type OptionalCrudCall<TInput> = Partial<CrudCall<TInput>>;
type Id = string | number;

/** The actions `resource.use(crud(...))` attaches; each runs the same pipeline as its HTTP route. */
export interface CrudActions<TTable extends Table> {
  list(call?: OptionalCrudCall<ListInput<TTable>>): Promise<{ items: Row<TTable>[]; total?: number }>;
  get(call: CrudCall<{ id: Id; select?: FieldName<TTable>[]; include?: IncludeInput }>): Promise<Row<TTable>>;
  findOne(call?: OptionalCrudCall<ListInput<TTable>>): Promise<Row<TTable> | null>;
  create(call: CrudCall<Partial<Row<TTable>>>): Promise<Row<TTable>>;
  update(call: CrudCall<{ id: Id; data: Partial<Row<TTable>> }>): Promise<Row<TTable>>;
  delete(call: CrudCall<{ id: Id }>): Promise<{ success: true }>;
  count(call?: OptionalCrudCall<{ where?: Where }>): Promise<{ count: number }>;
  exists(call?: OptionalCrudCall<{ where?: Where }>): Promise<{ exists: boolean }>;
}
