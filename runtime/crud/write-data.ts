// What the single-row writes and the writes in bulk (CONTRACT §10) share: the column values of written input, and a
// hook's replaced data checked against the table.
import { misconfiguration } from '../errors';
import type { CrudRuntime } from '../model/crud-runtime';
import type { FieldModel } from '../model/field-policy';

/** The column values of a create or update: each given field, its JSON form decoded (dates, bigints, binary). Only policy keys are read. */
export function writeValues(fields: readonly FieldModel[], data: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    if (!Object.hasOwn(data, field.key)) continue;
    const value = data[field.key];
    values[field.key] = value === null || field.codec === null ? value : field.codec.decode(value);
  }
  return values;
}

/** A hook may replace the data and set columns outside `fields` (owner, timestamps), but only real columns. */
export function checkHookData(rt: CrudRuntime, hook: string, data: unknown): Record<string, unknown> {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw misconfiguration(`${rt.label}: hooks.${hook} must return an object or nothing`);
  }
  for (const key of Object.keys(data)) {
    if (!Object.hasOwn(rt.columns, key)) {
      throw misconfiguration(`${rt.label}: hooks.${hook} set "${key}", which is not a column`);
    }
  }
  return data as Record<string, unknown>;
}

/** The key as the driver takes it: its JSON form decoded (a bigint key travels as a decimal string). */
export function decodeId(rt: CrudRuntime, id: unknown): unknown {
  return rt.pkCodec === null ? id : rt.pkCodec.decode(id);
}
