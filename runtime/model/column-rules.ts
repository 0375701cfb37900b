// What a column's drizzle type allows in a field policy and a call, as the runtime decides it: the filter operators
// (field-policy.ts: text operators need isStringColumn), whether `update` may be on (not on the primary key), and the
// JSON form a key takes as an `id` (write-data.ts decodeId). Types only; a column typed `any` is refused nothing.
import type { Column } from 'drizzle-orm';
import type { OperatorName, OPERATORS } from './operators';

/** A column value as it travels in JSON (CONTRACT §2 Row): Date → ISO string, bigint → decimal string, binary → base64. */
export type JsonValue<V> = V extends Date ? string : V extends bigint ? string : V extends Uint8Array ? string : V;

/** The operators that need a text column (operators.ts: `requiresString`). */
type TextOperator = Extract<(typeof OPERATORS)[number], { requiresString: true }>['name'];

/** column-schema.ts isStringColumn: a `string` column whose type ends in Text, VarChar, Varchar or Char (not uuid, numeric, enum or dates). */
type IsTextColumn<TColumn> = TColumn extends { _: { dataType: 'string'; columnType: infer TType extends string } }
  ? string extends TType
    ? true
    : TType extends `${string}${'Text' | 'Char' | 'Varchar'}` ? true : false
  : false;

/** Whether a column's type is known: a generic `Column` (or `any`) is refused nothing. */
type IsKnown<TColumn> = 0 extends 1 & TColumn ? false : Column extends TColumn ? false : true;

/** The operators a field policy may list for this column. */
export type ColumnOperator<TColumn> = IsKnown<TColumn> extends false ? OperatorName : IsTextColumn<TColumn> extends true ? OperatorName : Exclude<OperatorName, TextOperator>;

/**
 * What `update` may be: `false` only on a primary key column (`.primaryKey()`), which the runtime refuses as
 * updatable. MySQL's `serial` is typed as a primary key even without `.primaryKey()`, where the runtime takes it: left open.
 */
export type ColumnUpdate<TColumn> = IsKnown<TColumn> extends false
  ? boolean
  : TColumn extends { _: { isPrimaryKey: true; columnType: infer TType } } ? (TType extends 'MySqlSerial' ? boolean : false) : boolean;

/** An `id` as a call takes it: the key's JSON form (integer → number, text or uuid → string, bigint → decimal string). */
export type ColumnId<TColumn> = IsKnown<TColumn> extends false ? string | number : TColumn extends { _: { data: infer TData } } ? JsonValue<TData> : string | number;
