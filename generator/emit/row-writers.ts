// A resource's row writers (issue 11): `writeRow` writes the JSON text of a database row exactly as JSON.stringify
// writes the row object, and `readRow` builds that object where a scrub or an after-hook needs it; each through the
// columns' decoders and JSON codecs, with the readable fields in order.
import type { FieldModel } from '../../runtime/model/field-policy';
import type { ResourceDescription } from '../../runtime/sql/resource-description';
import { code, comment, joinCode, literal, property, propertyKey, type Code } from '../code/code';

/** One readable value as JSON: through the column's decoder where Drizzle has one, then its JSON codec. */
function valueJson(resource: ResourceDescription, field: FieldModel, index: number): Code {
  const raw = code`row[${index}]`;
  const isDecoded = resource.decodedFields.has(field.key);
  const decoded = isDecoded ? code`${property(code`decode`, field.key)}(${raw})` : raw;
  if (field.codec !== null) return code`JSON.stringify(${raw} == null ? null : ${property(code`codecs`, field.codec.name)}.encode(${decoded}))`;
  if (isDecoded) return code`JSON.stringify(${raw} === null ? null : ${decoded})`;
  return code`JSON.stringify(${raw} ?? null)`;
}

/** `writeRow(row, decode, codecs)`: the row's JSON text, exactly as JSON.stringify writes the row object. */
export function emitRowWriter(resource: ResourceDescription): Code {
  const rt = resource.plan;
  const parts = rt.readable.map((field, index) => code`${literal(`${index === 0 ? '{' : ','}${JSON.stringify(field.key)}:`)} + ${valueJson(resource, field, index)}`);
  const body = parts.length === 0 ? literal('{}') : code`${joinCode(parts, ' +\n')} +\n'}'`;
  return joinCode([
    comment(`A row of ${rt.resourceName} as callers see it, written as JSON from the database's row: ${rt.readable.map((field) => field.key).join(', ') || 'no field'}.`),
    code`function writeRow(row, decode, codecs) {
return (
${body}
);
}`,
  ]);
}

/** `readRow(row, decode, codecs)`: the row as the object callers see, for a scrub or an after-hook to receive. */
export function emitRowReader(resource: ResourceDescription): Code {
  const rt = resource.plan;
  const entries = rt.readable.map((field, index) => code`${propertyKey(field.key)}: ${valueOf(resource, field, index)},`);
  return joinCode([
    comment(`A row of ${rt.resourceName} as callers see it before its scrubs, from the database's row: ${rt.readable.map((field) => field.key).join(', ') || 'no field'}.`),
    code`function readRow(row, decode, codecs) {
return {
${joinCode(entries)}
};
}`,
  ]);
}

/** One readable value in its JSON form: through the column's decoder where Drizzle has one, then its JSON codec. */
function valueOf(resource: ResourceDescription, field: FieldModel, index: number): Code {
  const raw = code`row[${index}]`;
  const isDecoded = resource.decodedFields.has(field.key);
  const decoded = isDecoded ? code`${property(code`decode`, field.key)}(${raw})` : raw;
  if (field.codec !== null) return code`${raw} == null ? null : ${property(code`codecs`, field.codec.name)}.encode(${decoded})`;
  if (isDecoded) return code`${raw} === null ? null : ${decoded}`;
  return code`${raw} ?? null`;
}

/** Whether a response is written from the row's object (a scrub or an after-hook gets it), not by the row writer. */
export function needsRowObject(resource: ResourceDescription, afterHook: boolean): boolean {
  return resource.plan.readableScrubbed.length > 0 || afterHook;
}
