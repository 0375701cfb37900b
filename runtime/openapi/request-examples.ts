// Request examples for each documented route, built from the field policy and kept only when the route's
// own validator accepts them: every published example is a request the server takes.
import type { CrudActionName } from '../actions';
import type { CrudRuntime } from '../model/crud-runtime';
import type { FieldModel } from '../model/field-policy';
import type { JsonSchema } from '../model/options';
import { findOperator } from '../model/operators';
import type { Validator } from '../validation';
import type { DocumentedRoute } from './documented-routes';
import { exampleValue } from './example-value';

export interface NamedExample {
  readonly summary: string;
  readonly value: unknown;
}

export interface RouteExamples {
  /** Named request body examples (OpenAPI media type `examples`). */
  readonly body: Record<string, NamedExample>;
  /** The `{id}` path parameter's example, when the route has one. */
  readonly id?: unknown;
  /** get's `select` query parameter example (sent comma-separated). */
  readonly select?: string[];
}

/** A where on the first filterable field, with its first allowed operator. */
function whereExample(runtime: CrudRuntime): Record<string, unknown> | undefined {
  const field = runtime.fields.find((candidate) => candidate.filter.length > 0);
  if (field === undefined) return undefined;
  const operator = findOperator(field.filter[0])!;
  const value = exampleValue(field.valueSchema);
  if (value === undefined) return undefined;
  const operand = { scalar: value, list: [value], pair: [value, value], text: exampleValue({ type: 'string' }), flag: true }[operator.value];
  return { [field.key]: { [operator.name]: operand } };
}

function orderByExample(runtime: CrudRuntime): unknown[] | undefined {
  const field = runtime.fields.find((candidate) => candidate.sort);
  return field === undefined ? undefined : [{ field: field.key, direction: 'desc' }];
}

function selectExample(runtime: CrudRuntime): string[] | undefined {
  return runtime.readable.length === 0 ? undefined : runtime.readable.map((field) => field.key);
}

/** Writable fields' values: required ones for create, the first updatable for update (data needs at least one). */
function writeExample(fields: readonly FieldModel[], pick: (field: FieldModel) => boolean): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const field of fields) {
    const value = pick(field) ? exampleValue(field.valueSchema) : undefined;
    if (value !== undefined) data[field.key] = value; // a required field without an example makes the validator drop the example
  }
  return data;
}

/** A version 4 UUID as a key of that kind looks: Try-it-out shows its shape (a fixed one, so the document stays the same). */
const UUID_EXAMPLE = '3f2b8c1e-6d4a-4b7e-9c2d-8a1f0e5b7c64';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const uuidDefaults = new WeakMap<object, boolean>();

/** Whether the key is filled by an application function that makes UUIDs (`$defaultFn(() => randomUUID())`): asked once per column. */
function isUuidDefault(column: CrudRuntime['pkColumn']): boolean {
  const make = (column as { defaultFn?: unknown }).defaultFn;
  if (typeof make !== 'function') return false;
  let isUuid = uuidDefaults.get(column);
  if (isUuid === undefined) {
    try {
      const value: unknown = make();
      isUuid = typeof value === 'string' && UUID.test(value);
    } catch {
      isUuid = false;
    }
    uuidDefaults.set(column, isUuid);
  }
  return isUuid;
}

/**
 * The `{id}` example: a UUID for a uuid column or a key filled with UUIDs, else the key schema's plain example
 * (`1`; `example` for a text key the caller chooses, the very value create's example gives it).
 */
function idExample(runtime: CrudRuntime): unknown {
  if (runtime.idSchema.format === 'uuid' || (runtime.idSchema.type === 'string' && isUuidDefault(runtime.pkColumn))) return UUID_EXAMPLE;
  return exampleValue(runtime.idSchema);
}

/** Drops `undefined` entries, so a resource without filterable or sortable fields still gets an example. */
function defined(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, entry]) => entry !== undefined));
}

function crudBodyExamples(runtime: CrudRuntime, action: CrudActionName, id: unknown): Record<string, { summary: string; value: unknown; input: unknown }> {
  const where = whereExample(runtime);
  const filtered = defined({ select: selectExample(runtime), where, orderBy: orderByExample(runtime) });
  switch (action) {
    case 'list':
      return {
        page: { summary: 'The first page', value: { limit: runtime.defaultLimit }, input: { limit: runtime.defaultLimit } },
        filtered: { summary: 'Selected fields, filtered, ordered, with the total', value: { ...filtered, offset: 0, includeTotal: true }, input: { ...filtered, offset: 0, includeTotal: true } },
      };
    case 'findOne':
      return { first: { summary: 'The first row', value: {}, input: {} }, filtered: { summary: 'The first matching row', value: filtered, input: filtered } };
    case 'count':
    case 'exists': {
      const matching = defined({ where });
      return { all: { summary: 'Every row in scope', value: {}, input: {} }, filtered: { summary: 'Matching rows', value: matching, input: matching } };
    }
    case 'create': {
      const data = writeExample(runtime.creatable, (field) => field.isRequiredOnCreate);
      return { row: { summary: 'A new row with its required fields', value: data, input: data } };
    }
    case 'update': {
      const first = runtime.updatable[0];
      const data = writeExample(runtime.updatable, (field) => field === first);
      return { change: { summary: 'Changes one field', value: data, input: { id, data } } };
    }
    case 'createMany': {
      const data = writeExample(runtime.creatable, (field) => field.isRequiredOnCreate);
      return { rows: { summary: 'New rows with their required fields', value: { items: [data] }, input: { items: [data] } } };
    }
    case 'updateMany': {
      const first = runtime.updatable[0];
      const data = writeExample(runtime.updatable, (field) => field === first);
      const input = defined({ where, data });
      return { change: { summary: 'Changes one field of every matching row', value: input, input } };
    }
    case 'deleteMany': {
      const input = defined({ where });
      return { matching: { summary: 'Deletes every matching row', value: input, input } };
    }
    case 'upsert': {
      // The key comes from the path: the body leaves it out.
      const data = writeExample(runtime.creatable, (field) => field.isRequiredOnCreate && field.key !== runtime.pkKey);
      return { row: { summary: 'The row with its required fields', value: data, input: { id, data } } };
    }
    default:
      return {};
  }
}

function accepted(validate: Validator | null, input: unknown): boolean {
  return validate === null || validate(input) === true;
}

/**
 * Whether the action's validator takes this id. update's input also needs `data`: with an empty one the
 * validator fails anyway, and the id is fine unless the first error is at `/id` (ajv checks properties in
 * schema order, id before data, and stops at the first error).
 */
function acceptsId(validate: Validator, action: CrudActionName, id: unknown): boolean {
  if (action !== 'update' && action !== 'upsert') return accepted(validate, { id });
  return validate({ id, data: {} }) === true || validate.errors?.[0]?.instancePath !== '/id';
}

function keepAccepted(examples: Record<string, { summary: string; value: unknown; input: unknown }>, validate: Validator | null): Record<string, NamedExample> {
  const kept: Record<string, NamedExample> = {};
  for (const [name, example] of Object.entries(examples)) {
    if (example.value !== undefined && accepted(validate, example.input)) kept[name] = { summary: example.summary, value: example.value };
  }
  return kept;
}

/** The examples of a route's request: body examples, and the id / select parameters where the route has them. */
export function routeExamples(route: DocumentedRoute): RouteExamples {
  if (route.kind === 'service-action') {
    const source = route.route.source;
    const validate = source.kind === 'service-action' && source.validators !== null ? source.validators.get('input') : null;
    const input = route.action.input;
    const value = input === undefined ? {} : exampleValue(input as JsonSchema, { includeOptional: true });
    return { body: keepAccepted({ input: { summary: 'An input', value, input: value } }, validate) };
  }
  const { runtime, action } = route.source;
  // Every check uses the action's own validator (a built bundle installs exactly those).
  const validate = runtime.validators.get(action);
  const examples: { body: Record<string, NamedExample>; id?: unknown; select?: string[] } = { body: {} };
  const candidateId = route.route.input === 'body' ? undefined : idExample(runtime);
  const id = candidateId !== undefined && acceptsId(validate, action, candidateId) ? candidateId : undefined;
  examples.body = keepAccepted(crudBodyExamples(runtime, action, id), validate);
  if (id !== undefined) examples.id = id;
  if (action === 'get' && examples.id !== undefined) {
    const select = selectExample(runtime);
    if (select !== undefined && accepted(validate, { id, select })) examples.select = select;
  }
  return examples;
}
