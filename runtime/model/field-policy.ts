// Turns the `fields` option into frozen per-field models, in the table's column order, and throws the
// setup errors of spec §7 (unknown column, updatable primary key, text operators on other columns).
import { getTableColumns, getTableName, type Column, type Table } from 'drizzle-orm';
import type { Dialect } from '../dialects/dialect';
import { SetupError } from '../errors';
import { findOperator, type OperatorName } from './operators';
import { codecOf, inferColumnSchema, isStringColumn, withValueBounds, type ColumnCodec } from './column-schema';
import type { JsonSchema } from '../json-schema';
import type { FieldPolicy, ScrubArgs } from './options';

export interface FieldModel {
  /** The table's TypeScript property name (`createdAt`), used in inputs and rows. */
  readonly key: string;
  readonly column: Column;
  readonly isPrimaryKey: boolean;
  readonly read: boolean;
  readonly create: boolean;
  readonly update: boolean;
  readonly sort: boolean;
  readonly filter: readonly OperatorName[];
  readonly scrub: ((args: ScrubArgs) => unknown) | null;
  /** The value's JSON Schema, without null: the `schema` override or the one inferred from the column, bounded (withValueBounds). */
  readonly valueSchema: JsonSchema;
  readonly isNullable: boolean;
  /** NOT NULL without any default: create input must carry it. */
  readonly isRequiredOnCreate: boolean;
  readonly codec: ColumnCodec | null;
}

const POLICY_OPTIONS = new Set(['read', 'create', 'update', 'filter', 'sort', 'schema', 'scrub']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkBoolean(label: string, path: string, value: unknown): boolean {
  if (value === undefined) return false;
  if (typeof value !== 'boolean') throw new SetupError(`${label}: ${path} must be a boolean`);
  return value;
}

function buildFieldModel(label: string, key: string, column: Column, policy: FieldPolicy, dialect: Dialect): FieldModel {
  const path = `fields.${key}`;
  if (!isPlainObject(policy)) throw new SetupError(`${label}: ${path} must be a field policy object`);
  for (const option of Object.keys(policy)) {
    if (!POLICY_OPTIONS.has(option)) throw new SetupError(`${label}: ${path}.${option} is not a field policy option`);
  }
  const read = checkBoolean(label, `${path}.read`, policy.read);
  const update = checkBoolean(label, `${path}.update`, policy.update);
  if (update && column.primary) throw new SetupError(`${label}: ${path}.update: the primary key must not be updatable`);

  const filter = policy.filter ?? [];
  if (!Array.isArray(filter)) throw new SetupError(`${label}: ${path}.filter must be an array of filter operators`);
  for (const name of filter) {
    const operator = findOperator(name);
    if (operator === undefined) throw new SetupError(`${label}: ${path}.filter: "${name}" is not a filter operator`);
    if (operator.requiresString && !isStringColumn(column)) {
      throw new SetupError(`${label}: ${path}.filter: ${name} requires a string column, and ${key} is ${column.columnType}`);
    }
  }
  if (policy.scrub !== undefined && typeof policy.scrub !== 'function') throw new SetupError(`${label}: ${path}.scrub must be a function`);
  if (policy.scrub !== undefined && !read) throw new SetupError(`${label}: ${path}.scrub applies to readable fields only; add read: true`);
  if (policy.schema !== undefined && !isPlainObject(policy.schema)) throw new SetupError(`${label}: ${path}.schema must be a JSON Schema object`);
  const inferred = dialect.refineColumnSchema(column, inferColumnSchema(column));

  return Object.freeze({
    key,
    column,
    isPrimaryKey: column.primary,
    read,
    create: checkBoolean(label, `${path}.create`, policy.create),
    update,
    sort: checkBoolean(label, `${path}.sort`, policy.sort),
    filter: Object.freeze([...new Set(filter)]),
    scrub: (policy.scrub as FieldModel['scrub'] | undefined) ?? null,
    valueSchema: withValueBounds(policy.schema ?? inferred, inferred),
    isNullable: !column.notNull,
    isRequiredOnCreate: column.notNull && !column.hasDefault,
    codec: codecOf(column),
  });
}

/** Field models for the columns listed in `fields`, in the table's column declaration order. */
export function buildFieldModels(label: string, table: Table, fields: Record<string, FieldPolicy> | undefined, dialect: Dialect): FieldModel[] {
  if (fields === undefined) return [];
  if (!isPlainObject(fields)) throw new SetupError(`${label}: fields must be an object keyed by column name`);
  const columns = getTableColumns(table);
  for (const key of Object.keys(fields)) {
    if (!Object.hasOwn(columns, key)) throw new SetupError(`${label}: fields.${key} is not a column of table "${getTableName(table)}"`);
  }
  return Object.keys(columns)
    .filter((key) => Object.hasOwn(fields, key))
    .map((key) => buildFieldModel(label, key, columns[key], fields[key] as FieldPolicy, dialect));
}
