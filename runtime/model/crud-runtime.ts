// What a crud resource is, resolved once at setup: field models, validators, selections, access rules and hooks.
// The actions read only this object (no per-request policy work); the sql layer's plan adds the statement cache.
import { getTableColumns, type Column, type Table } from 'drizzle-orm';
import { CRUD_ACTION_NAMES, isOptIn, type CrudActionName } from '../actions';
import type { AnyDatabase, Dialect } from '../dialects/dialect';
import { SetupError } from '../errors';
import { whereLimitsFor } from './where-limits';
import { ResourceValidators, validationDocument } from './resource-validators';
import { codecOf, inferColumnSchema, withValueBounds, type ColumnCodec, type WhereColumns } from './column-schema';
import { buildFieldModels, type FieldModel } from './field-policy';
import { buildInputSchemas, type InputSchemas } from './input-schemas';
import type { JsonSchema } from '../json-schema';
import type { AccessRules, CrudHooks, CrudOptions, RuntimeHooks, ScopeFunction } from './options';
import { checkRelationOptions, type RelationDeclaration } from './relation-options';

export const DEFAULT_LIMIT = 20;
export const DEFAULT_MAX_LIMIT = 100;
/** CONTRACT §10: createMany takes at most this many items unless `maxBatch` says otherwise. */
export const DEFAULT_MAX_BATCH = 100;
/** CONTRACT §10: updateMany and deleteMany change at most this many rows unless `maxAffected` says otherwise. */
export const DEFAULT_MAX_AFFECTED = 1000;

/** What the resource tells the plugin about itself. */
export interface CrudRuntimeSource {
  /** `<service>.<resource>`, for messages. */
  readonly label: string;
  readonly resourceName: string;
  readonly db: AnyDatabase;
  readonly dialect: Dialect;
  readonly table: Table;
  readonly pkKey: string;
}

export interface CrudRuntime extends CrudRuntimeSource {
  readonly pkColumn: Column;
  readonly pkCodec: ColumnCodec | null;
  readonly idSchema: JsonSchema;
  readonly fields: readonly FieldModel[];
  readonly readable: readonly FieldModel[];
  readonly readableScrubbed: readonly FieldModel[];
  readonly creatable: readonly FieldModel[];
  readonly updatable: readonly FieldModel[];
  /** All table columns by property name (scope conditions and ordering may use any). */
  readonly columns: Record<string, Column>;
  /** The columns user `where` input may name (validated against the policy first). */
  readonly filterColumns: WhereColumns;
  /** Every column, for scope conditions, which may name hidden columns. */
  readonly scopeColumns: WhereColumns;
  /** The readable columns, or just the primary key when nothing is readable (SQL needs one column). */
  readonly defaultSelection: Record<string, Column>;
  readonly inputSchemas: Readonly<InputSchemas>;
  /** Compiled on first use (or installed from a built bundle). */
  readonly validators: ResourceValidators;
  readonly access: {
    readonly isPublic: boolean;
    readonly authorize: NonNullable<AccessRules['authorize']> | null;
    readonly scope: ScopeFunction | null;
  };
  readonly hooks: { readonly [K in keyof RuntimeHooks]: RuntimeHooks[K] | null };
  readonly defaultLimit: number;
  readonly maxLimit: number;
  /** createMany's largest batch (CONTRACT §10). */
  readonly maxBatch: number;
  /** The most rows updateMany or deleteMany may change (CONTRACT §10). */
  readonly maxAffected: number;
  /** CONTRACT §9: the declared relations, in declaration order; their joins resolve on first use (relations.ts). */
  readonly relations: readonly RelationDeclaration[];
}

const OPTION_KEYS = new Set(['access', 'fields', 'operations', 'defaultLimit', 'maxLimit', 'maxBatch', 'maxAffected', 'routes', 'hooks', 'relations']);
const HOOK_KEYS = ['beforeCreate', 'beforeUpdate', 'afterCreate', 'afterUpdate', 'afterDelete'] as const;

function resolveAccess(label: string, access: CrudOptions['access'] | undefined): CrudRuntime['access'] {
  // spec §5.1: access is mandatory; deny by default.
  if (access === undefined) throw new SetupError(`${label}: crud access is required ('public' or { authorize, scope })`);
  if (access === 'public') return { isPublic: true, authorize: null, scope: null };
  if (typeof access !== 'object' || access === null) throw new SetupError(`${label}: access must be 'public' or { authorize, scope }`);
  for (const key of Object.keys(access)) {
    if (key !== 'authorize' && key !== 'scope') throw new SetupError(`${label}: access.${key} is not an access option`);
  }
  if (access.authorize !== undefined && typeof access.authorize !== 'function') throw new SetupError(`${label}: access.authorize must be a function`);
  if (access.scope !== undefined && typeof access.scope !== 'function') throw new SetupError(`${label}: access.scope must be a function`);
  // The options' types (its table's columns, the declared context) did their work at compile time; the runtime's are loose.
  return { isPublic: false, authorize: access.authorize ?? null, scope: (access.scope as ScopeFunction | undefined) ?? null };
}

function resolveHooks(label: string, hooks: CrudHooks | undefined): CrudRuntime['hooks'] {
  const given = (hooks ?? {}) as Partial<RuntimeHooks>;
  for (const key of Object.keys(given)) {
    if (!(HOOK_KEYS as readonly string[]).includes(key)) throw new SetupError(`${label}: hooks.${key} is not a crud hook`);
    if (typeof (given as Record<string, unknown>)[key] !== 'function') throw new SetupError(`${label}: hooks.${key} must be a function`);
  }
  return {
    beforeCreate: given.beforeCreate ?? null,
    beforeUpdate: given.beforeUpdate ?? null,
    afterCreate: given.afterCreate ?? null,
    afterUpdate: given.afterUpdate ?? null,
    afterDelete: given.afterDelete ?? null,
  };
}

function resolveLimit(label: string, name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new SetupError(`${label}: ${name} must be a positive integer`);
  return value;
}

/** The operations left on: the eight of the specification by default, none with `operations: false`; CONTRACT §10's only when named. */
export function enabledActions(label: string, operations: CrudOptions['operations']): CrudActionName[] {
  if (operations === false) return [];
  if (operations === undefined) return CRUD_ACTION_NAMES.filter((name) => !isOptIn(name));
  if (typeof operations !== 'object' || operations === null) throw new SetupError(`${label}: operations must be false or an object of booleans`);
  for (const [key, value] of Object.entries(operations)) {
    if (!(CRUD_ACTION_NAMES as readonly string[]).includes(key)) throw new SetupError(`${label}: operations.${key} is not a crud operation`);
    if (typeof value !== 'boolean') throw new SetupError(`${label}: operations.${key} must be a boolean`);
  }
  return CRUD_ACTION_NAMES.filter((name) => (isOptIn(name) ? operations[name] === true : operations[name] !== false));
}

export function buildCrudRuntime(source: CrudRuntimeSource, options: CrudOptions): CrudRuntime {
  const { label } = source;
  if (typeof options !== 'object' || options === null) throw new SetupError(`${label}: crud options must be an object`);
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.has(key)) throw new SetupError(`${label}: ${key} is not a crud option`);
  }
  const access = resolveAccess(label, options.access);
  const fields = buildFieldModels(label, source.table, options.fields as Record<string, never> | undefined, source.dialect);
  for (const field of fields) {
    const problem = source.dialect.checkColumn(source.db, field.column);
    if (problem !== null) throw new SetupError(`${label}: fields.${field.key}: ${problem}`);
  }
  const defaultLimit = resolveLimit(label, 'defaultLimit', options.defaultLimit, DEFAULT_LIMIT);
  const maxLimit = resolveLimit(label, 'maxLimit', options.maxLimit, DEFAULT_MAX_LIMIT);
  if (defaultLimit > maxLimit) throw new SetupError(`${label}: defaultLimit (${defaultLimit}) is above maxLimit (${maxLimit})`);
  const maxBatch = resolveLimit(label, 'maxBatch', options.maxBatch, DEFAULT_MAX_BATCH);
  const maxAffected = resolveLimit(label, 'maxAffected', options.maxAffected, DEFAULT_MAX_AFFECTED);

  const columns = getTableColumns(source.table);
  const pkColumn = columns[source.pkKey];
  const pkField = fields.find((field) => field.key === source.pkKey);
  const idSchema = pkField?.valueSchema ?? withValueBounds(source.dialect.refineColumnSchema(pkColumn, inferColumnSchema(pkColumn)));

  const filterColumns: WhereColumns = Object.create(null);
  for (const field of fields) if (field.filter.length > 0) filterColumns[field.key] = { column: field.column, codec: field.codec };
  const scopeColumns: WhereColumns = Object.create(null);
  for (const [key, column] of Object.entries(columns)) scopeColumns[key] = { column, codec: codecOf(column) };

  const readable = fields.filter((field) => field.read);
  const defaultSelection: Record<string, Column> = {};
  for (const field of readable) defaultSelection[field.key] = field.column;
  if (readable.length === 0) defaultSelection[source.pkKey] = pkColumn;

  const optIn = enabledActions(label, options.operations).filter(isOptIn);
  const relations = checkRelationOptions(label, source.table, options.relations);
  const inputSchemas = buildInputSchemas({ fields, idSchema, maxLimit, maxBatch, optIn, pkKey: source.pkKey, relations });
  const validators = new ResourceValidators(validationDocument(inputSchemas), whereLimitsFor(source.dialect.name));

  return Object.freeze({
    ...source,
    pkColumn,
    pkCodec: codecOf(pkColumn),
    idSchema,
    fields,
    readable,
    readableScrubbed: readable.filter((field) => field.scrub !== null),
    creatable: fields.filter((field) => field.create),
    updatable: fields.filter((field) => field.update),
    columns,
    filterColumns,
    scopeColumns,
    defaultSelection,
    inputSchemas,
    validators,
    access,
    hooks: resolveHooks(label, options.hooks),
    defaultLimit,
    maxLimit,
    maxBatch,
    maxAffected,
    relations,
  });
}

