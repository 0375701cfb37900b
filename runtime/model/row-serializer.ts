// Turns database rows into response rows (CONTRACT §2 Row): readable fields only, JSON forms for
// dates, bigints and binary, then each field's `scrub` with the caller context.
import type { DbRow } from '../dialects/dialect';
import type { FieldModel } from './field-policy';
import type { AnyContext } from './options';
import { isPending } from './maybe-pending';

export type JsonRow = Record<string, unknown>;

/** A row's readable fields in their JSON form, before any scrub. */
export function encodeRow(row: DbRow, fields: readonly FieldModel[]): JsonRow {
  const json: JsonRow = {};
  for (const field of fields) {
    const value = row[field.key];
    json[field.key] = value === null || value === undefined || field.codec === null ? (value ?? null) : field.codec.encode(value);
  }
  return json;
}

/** Serializes rows for the caller; `fields` are the selected readable fields, `scrubbed` those of them with a scrub. */
export async function serializeRows(rows: readonly DbRow[], fields: readonly FieldModel[], scrubbed: readonly FieldModel[], ctx: AnyContext): Promise<JsonRow[]> {
  const result = rows.map((row) => encodeRow(row, fields));
  if (scrubbed.length > 0) await scrubRows(result, scrubbed, ctx);
  return result;
}

/**
 * Runs each scrubbed field's `scrub` over rows in their JSON form, in place (the compiled handlers' rows too).
 * Synchronous when every scrub is (undefined: nothing to await), a promise when one answered a promise.
 */
export function scrubRows(result: JsonRow[], scrubbed: readonly FieldModel[], ctx: AnyContext): void | Promise<void> {
  const pending: Promise<void>[] = [];
  for (const json of result) {
    const original = { ...json }; // scrub sees the row as it was before any field was scrubbed
    for (const field of scrubbed) {
      const value = field.scrub!({ value: original[field.key], row: original, ctx });
      // Synchronous scrubs (the common case) cost no promise.
      if (isPending(value)) pending.push(Promise.resolve(value).then((resolved) => void (json[field.key] = resolved)));
      else json[field.key] = value;
    }
  }
  if (pending.length > 0) return Promise.all(pending).then(() => undefined);
}
