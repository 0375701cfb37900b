// An example value for a JSON Schema, deterministic and plain (`example`, 1, true, fixed dates), used for
// the document's request examples. Callers validate whole examples with the route's own validator.
import type { JsonSchema } from '../model/options';
import { resolveLocalRef } from './schema-walk';

const FORMAT_EXAMPLES: Record<string, string> = {
  'date-time': '2024-01-01T00:00:00.000Z',
  date: '2024-01-01',
  time: '12:00:00Z',
  email: 'user@example.com',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '00000000-0000-4000-8000-000000000000',
  hostname: 'example.com',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
};

/** Tried in order; the first that fits length and pattern wins (`1` fits decimal strings, `text` base64). */
const STRING_CANDIDATES = ['example', 'text', '1', 'a', 'A', 'example-1'];

/** Recursive schemas stop here. */
const MAX_DEPTH = 8;

export interface ExampleOptions {
  /** Fill optional object properties too (otherwise only `required` ones). */
  readonly includeOptional: boolean;
}

function fitsString(text: string, schema: JsonSchema): boolean {
  if (typeof schema.minLength === 'number' && [...text].length < schema.minLength) return false;
  if (typeof schema.maxLength === 'number' && [...text].length > schema.maxLength) return false;
  if (typeof schema.pattern === 'string') {
    try {
      if (!new RegExp(schema.pattern, 'u').test(text)) return false;
    } catch {
      return false;
    }
  }
  return true;
}

function stringExample(schema: JsonSchema): string | undefined {
  const format = typeof schema.format === 'string' ? FORMAT_EXAMPLES[schema.format] : undefined;
  if (format !== undefined) return format;
  const minLength = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const candidates = [...STRING_CANDIDATES, 'example'.padEnd(minLength, 'x')];
  return candidates.find((text) => fitsString(text, schema));
}

function numberExample(schema: JsonSchema, isInteger: boolean): number {
  let value = isInteger ? 1 : 1.5;
  const low = (schema.minimum ?? schema.exclusiveMinimum) as number | undefined;
  const high = (schema.maximum ?? schema.exclusiveMaximum) as number | undefined;
  if (typeof low === 'number' && value <= low) value = schema.minimum === undefined ? low + 1 : low;
  if (typeof high === 'number' && value >= high) value = schema.maximum === undefined ? high - 1 : high;
  return isInteger ? Math.round(value) : value;
}

function firstType(schema: JsonSchema): string | undefined {
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === 'string' ? [schema.type] : [];
  const nonNull = types.find((type) => type !== 'null');
  if (nonNull !== undefined) return nonNull;
  if (types.length > 0) return 'null';
  if (schema.properties !== undefined) return 'object';
  if (schema.items !== undefined || schema.prefixItems !== undefined) return 'array';
  if (schema.pattern !== undefined || schema.format !== undefined || schema.minLength !== undefined) return 'string';
  return undefined;
}

function arrayExample(schema: JsonSchema, root: JsonSchema, options: ExampleOptions, depth: number): unknown[] | undefined {
  const prefix = Array.isArray(schema.prefixItems) ? (schema.prefixItems as JsonSchema[]) : [];
  const values: unknown[] = [];
  for (const item of prefix) values.push(exampleOf(item, root, options, depth + 1));
  const minItems = typeof schema.minItems === 'number' ? schema.minItems : 0;
  const maxItems = typeof schema.maxItems === 'number' ? schema.maxItems : Infinity;
  const count = Math.min(Math.max(minItems, 1), maxItems);
  if (values.length < count && schema.items !== undefined && typeof schema.items === 'object') {
    const item = exampleOf(schema.items as JsonSchema, root, options, depth + 1);
    while (values.length < count) values.push(item);
  }
  return values.includes(undefined) ? undefined : values;
}

function objectExample(schema: JsonSchema, root: JsonSchema, options: ExampleOptions, depth: number): Record<string, unknown> | undefined {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const example: Record<string, unknown> = {};
  for (const key of Object.keys(properties)) {
    if (!required.includes(key) && !options.includeOptional) continue;
    const value = exampleOf(properties[key], root, options, depth + 1);
    if (value === undefined) {
      if (required.includes(key)) return undefined;
      continue;
    }
    example[key] = value;
  }
  return example;
}

function exampleOf(schema: JsonSchema | boolean, root: JsonSchema, options: ExampleOptions, depth: number): unknown {
  if (schema === true) return {};
  if (schema === false || depth > MAX_DEPTH) return undefined;
  if (typeof schema.$ref === 'string') {
    const target = resolveLocalRef(root, schema.$ref);
    return target === undefined ? undefined : exampleOf(target, root, options, depth + 1);
  }
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((value) => value !== null) ?? schema.enum[0];
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if ('default' in schema) return schema.default;
  for (const keyword of ['anyOf', 'oneOf']) {
    if (!Array.isArray(schema[keyword])) continue;
    const branches = schema[keyword] as JsonSchema[];
    const preferred = [...branches.filter((branch) => branch.type !== 'null'), ...branches.filter((branch) => branch.type === 'null')];
    for (const branch of preferred) {
      const value = exampleOf(branch, root, options, depth + 1);
      if (value !== undefined) return value;
    }
    return undefined;
  }
  if (Array.isArray(schema.allOf)) {
    const { allOf, ...rest } = schema;
    return exampleOf(Object.assign({}, rest, ...(allOf as JsonSchema[])), root, options, depth + 1);
  }
  switch (firstType(schema)) {
    case 'string':
      return stringExample(schema);
    case 'integer':
      return numberExample(schema, true);
    case 'number':
      return numberExample(schema, false);
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'array':
      return arrayExample(schema, root, options, depth);
    case 'object':
      return objectExample(schema, root, options, depth);
    default:
      return 'not' in schema ? undefined : {}; // no type: any JSON value
  }
}

/** An example of `schema` (local `$ref`s resolve against `root`, by default the schema itself); undefined when none is found. */
export function exampleValue(schema: JsonSchema | boolean, options: ExampleOptions = { includeOptional: false }, root?: JsonSchema): unknown {
  return exampleOf(schema, root ?? (typeof schema === 'object' ? schema : {}), options, 0);
}
