// The response serializer written for the resource's row shape: one object literal with the readable
// fields in column order, each in its JSON form (CONTRACT §2 Row), exactly as the generic serializer makes it.
import type { CrudRuntime } from '../../runtime/crud/crud-runtime';
import { code, comment, joinCode, name, property, propertyKey, type Code } from '../code/code';

export const SERIALIZER_NAME = 'serializeRow';

function fieldValue(field: CrudRuntime['readable'][number]): Code {
  const value = property(code`row`, field.key);
  if (field.codec === null) return code`${value} ?? null`;
  return code`${value} == null ? null : ${property(code`codecs`, field.codec.name)}.encode(${value})`;
}

/** A `serializeRow(row, codecs)` function, or null when a field has a scrub (those rows go through the runtime). */
export function emitSerializer(rt: CrudRuntime): Code | null {
  if (rt.readableScrubbed.length > 0) return null;
  const properties = rt.readable.map((field) => code`${propertyKey(field.key)}: ${fieldValue(field)},`);
  const keys = rt.readable.map((field) => field.key).join(', ') || 'none';
  return joinCode([
    comment(`A ${rt.resourceName} row as callers see it: the readable fields ${keys}.`),
    code`function ${name(SERIALIZER_NAME)}(row, codecs) {
return {
${joinCode(properties)}
};
}`,
  ]);
}
