// What Drizzle's prepared query works out again at every execution, worked out once per cached statement:
// which placeholder (and column encoder) fills each parameter, and which property and decoder each column of an
// array row gets. Drizzle checks every parameter's and every field's class per call (`fillPlaceholders`,
// `mapResultRow`); the statement cache runs the same shapes thousands of times.
import { Column, is, Param, Placeholder, SQL } from 'drizzle-orm';
import { NoopCache } from 'drizzle-orm/cache/core';
import type { DbRow } from './dialect';

/** The statement's parameters for one call's placeholder values. */
export type ParameterFiller = (values: Record<string, unknown>) => unknown[];

/** An array row (select order) as Drizzle would map it for a flat selection. */
export type RowReader = (row: readonly unknown[]) => DbRow;

/** What fills one parameter: a placeholder's value (through its column's encoder, when it is behind one), or a fixed value. */
export type ParameterSlot = { readonly name: string; readonly encoder: { mapToDriverValue(value: unknown): unknown } | null } | { readonly value: unknown };

/** The slot of one of Drizzle's `toSQL()` parameters, as `fillPlaceholders` reads it. */
export function parameterSlot(param: unknown): ParameterSlot {
  if (is(param, Placeholder)) return { name: param.name, encoder: null };
  if (is(param, Param) && is(param.value, Placeholder)) return { name: param.value.name, encoder: param.encoder };
  return { value: param };
}

function valueOf(values: Record<string, unknown>, name: string): unknown {
  if (!(name in values)) throw new Error(`No value for placeholder "${name}" was provided`);
  return values[name];
}

/** Drizzle's `fillPlaceholders(params, values)`, each parameter's kind decided once. */
export function parameterFiller(params: readonly unknown[]): ParameterFiller {
  const slots = params.map(parameterSlot);
  return (values) =>
    slots.map((slot) => {
      if ('value' in slot) return slot.value;
      const value = valueOf(values, slot.name);
      return slot.encoder === null ? value : slot.encoder.mapToDriverValue(value);
    });
}

/** A selected field as Drizzle's prepared query lists it. */
interface SelectedField {
  readonly path: readonly string[];
  readonly field: unknown;
}

/** A column's own decoder in place of Drizzle's, or null for Drizzle's (a dialect's shortcut to the JSON form). */
export type DecoderOverride = (column: Column) => ((value: unknown) => unknown) | null;

/** How a column's driver values are decoded in Tessera's rows: `override`'s decoder, else the column's (Drizzle's). */
export function columnDecoder(column: Column, override: DecoderOverride): (value: unknown) => unknown {
  return override(column) ?? ((value) => column.mapFromDriverValue(value));
}

type Decoder = (value: unknown) => unknown;

/** A selected field's decoder as Drizzle's `mapResultRow` picks it (a column's, or an SQL expression's `mapWith`), or null for other fields. */
function fieldDecoder(field: unknown, override: DecoderOverride): Decoder | null {
  if (is(field, Column)) return columnDecoder(field, override);
  if (!is(field, SQL)) return null;
  const { decoder } = field as unknown as { decoder: { mapFromDriverValue(value: unknown): unknown } };
  return (value) => decoder.mapFromDriverValue(value);
}

/**
 * Drizzle's `mapResultRow` for a selection whose fields each sit under their own top-level key (every select of the
 * crud actions: table columns, and SQL expressions such as an include's nested rows or a count); null for any other
 * selection (joins), which keeps Drizzle's own mapping. `override` may give a column a decoder of its own.
 */
export function flatRowReader(fields: readonly SelectedField[] | undefined, override: DecoderOverride = () => null): RowReader | null {
  if (fields === undefined || !fields.every((selected) => selected.path.length === 1)) return null;
  const decoders: Decoder[] = [];
  for (const selected of fields) {
    const decoder = fieldDecoder(selected.field, override);
    if (decoder === null) return null;
    decoders.push(decoder);
  }
  const keys = fields.map((selected) => selected.path[0]);
  return (row) => {
    const mapped: DbRow = {};
    for (let index = 0; index < keys.length; index++) {
      const value = row[index];
      mapped[keys[index]] = value === null ? null : decoders[index](value);
    }
    return mapped;
  };
}

/** What Drizzle's prepared queries (drizzle-orm 0.45) hold of a select on every driver: its fields, mapper, cache and logger. */
export interface DrizzleSelectParts {
  readonly fields?: readonly SelectedField[];
  readonly customResultMapper?: unknown;
  readonly cache?: unknown;
  readonly logger: { logQuery(sql: string, params: unknown[]): void };
}

/**
 * The row reader of a Drizzle prepared select run without Drizzle's per-call mapping (a dialect's cached select), or
 * null where Drizzle must run it itself: a custom result mapper, a query cache configured on Drizzle, a joined selection.
 */
export function selectRowReader(statement: DrizzleSelectParts, override?: DecoderOverride): RowReader | null {
  if (statement.customResultMapper !== undefined || (statement.cache !== undefined && !is(statement.cache, NoopCache))) return null;
  return flatRowReader(statement.fields, override);
}
