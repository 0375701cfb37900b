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

/**
 * The fields a read fetches to answer `fields`: every readable one when one of them has a scrub, since a scrub sees
 * the whole row whatever the `select` (docs/access.md); else just those (a resource without scrubs reads what was asked).
 */
export function fieldsToRead(readable: readonly FieldModel[], readableScrubbed: readonly FieldModel[], fields: readonly FieldModel[]): readonly FieldModel[] {
  if (readableScrubbed.length === 0 || fields === readable) return fields;
  return fields.some((field) => field.scrub !== null) ? readable : fields;
}

/**
 * Serializes rows for the caller; `fields` are the selected readable fields, `scrubbed` those of them with a scrub,
 * `readable` every readable field: what a scrub sees (rows hold them all when `scrubbed` is not empty, fieldsToRead).
 */
export async function serializeRows(rows: readonly DbRow[], fields: readonly FieldModel[], scrubbed: readonly FieldModel[], readable: readonly FieldModel[], ctx: AnyContext): Promise<JsonRow[]> {
  const result = rows.map((row) => encodeRow(row, fields));
  if (scrubbed.length === 0) return result;
  // A select narrows the answer, never what its scrubs see.
  await scrubRows(result, scrubbed, ctx, fields === readable ? null : rows.map((row) => encodeRow(row, readable)));
  return result;
}

/**
 * Runs each scrubbed field's `scrub` over rows in their JSON form, in place (the compiled handlers' rows too), each
 * seeing its row as it was before any field was scrubbed: `wholeRows[i]` where the rows are narrowed by a select.
 * Synchronous when every scrub is (undefined: nothing to await), a promise when one answered a promise.
 */
export function scrubRows(result: JsonRow[], scrubbed: readonly FieldModel[], ctx: AnyContext, wholeRows: readonly JsonRow[] | null = null): void | Promise<void> {
  const pending: Promise<void>[] = [];
  for (let index = 0; index < result.length; index++) {
    const json = result[index];
    const original = wholeRows === null ? { ...json } : wholeRows[index];
    for (const field of scrubbed) {
      const value = field.scrub!({ value: original[field.key], row: original, ctx });
      // Synchronous scrubs (the common case) cost no promise.
      if (isPending(value)) pending.push(Promise.resolve(value).then((resolved) => void (json[field.key] = resolved)));
      else json[field.key] = value;
    }
  }
  if (pending.length > 0) return Promise.all(pending).then(() => undefined);
}
