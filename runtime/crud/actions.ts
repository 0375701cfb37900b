// The eight crud actions and the pipeline every call runs through, in-process and over HTTP
// (CONTRACT §2): input validation → authorize → scope → query → scrub.
import { and, is, SQL } from 'drizzle-orm';
import { crudActionSpec, type CrudActionName } from '../actions';
import { ROW_MISSING, type DbRow, type WritePlan } from '../dialects/dialect';
import { DatabaseError, misconfiguration, TesseraError } from '../errors';
import type { OrderByEntry } from '../sql/order-by';
import { compileWhere } from '../sql/where';
import { assertValid } from '../validation';
import type { CrudRuntime } from '../model/crud-runtime';
import type { FieldModel } from '../model/field-policy';
import type { Context, ScopeFunction, Where } from '../model/options';
import { anyRow, countRows, selectById, selectPage, statementSource } from '../sql/read-queries';
import type { ResourcePlan, Scope } from '../sql/resource-plan';
import { serializeRows, type JsonRow } from '../model/row-serializer';

interface ListInput {
  select?: string[];
  where?: Where;
  orderBy?: OrderByEntry[];
  limit?: number;
  offset?: number;
  includeTotal?: boolean;
}

export type { Scope } from '../sql/resource-plan';

export async function authorizeCall(rt: CrudRuntime, action: CrudActionName, input: unknown, ctx: Context): Promise<void> {
  if (rt.access.isPublic) return;
  // spec §5.1 rule 4: an access object without authorize rejects every call.
  if (rt.access.authorize === null) throw new TesseraError('FORBIDDEN', `${rt.resourceName}.${action} is not authorized for anyone`);
  const allowed = await rt.access.authorize({ ctx, action, input, resource: rt.resourceName });
  if (allowed !== true) throw new TesseraError('FORBIDDEN', `${rt.resourceName}.${action} is not allowed`);
}

/** A scope function's answer as SQL over every column (hidden ones included), or undefined for none. */
async function scopeCondition(rt: CrudRuntime, scope: ScopeFunction, action: CrudActionName, ctx: Context): Promise<Scope> {
  const condition = await scope({ ctx, action });
  if (condition === undefined || condition === null) return undefined;
  if (is(condition, SQL)) return condition;
  return compileWhere(condition as Where, rt.scopeColumns, rt.dialect);
}

/**
 * The call's scope: the access scope, ANDed with the route's own scope for calls through a route that has one
 * (CONTRACT §2: a route narrows, never widens). Undefined when neither gives a condition (spec §8 rule 2).
 */
export async function resolveScope(rt: CrudRuntime, action: CrudActionName, ctx: Context, routeScope: ScopeFunction | null = null): Promise<Scope> {
  const scope = rt.access.scope === null ? undefined : await scopeCondition(rt, rt.access.scope, action, ctx);
  if (routeScope === null) return scope;
  const narrowed = await scopeCondition(rt, routeScope, action, ctx);
  if (narrowed === undefined) return scope;
  return scope === undefined ? narrowed : and(scope, narrowed);
}

function selectedFields(rt: CrudRuntime, select: readonly string[] | undefined): readonly FieldModel[] {
  if (select === undefined) return rt.readable;
  return rt.readable.filter((field) => select.includes(field.key));
}

function serialize(rt: CrudRuntime, rows: readonly DbRow[], fields: readonly FieldModel[], ctx: Context): Promise<JsonRow[]> {
  const scrubbed = fields === rt.readable ? rt.readableScrubbed : fields.filter((field) => field.scrub !== null);
  return serializeRows(rows, fields, scrubbed, ctx);
}

function decodeId(rt: CrudRuntime, id: unknown): unknown {
  return rt.pkCodec === null ? id : rt.pkCodec.decode(id);
}

/** Picks the writable fields present in the input, decoded for the driver. Only policy keys are read. */
/** The column values of a create or update: each given field, its JSON form decoded (dates, bigints, binary). */
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

function writePlan(rt: ResourcePlan, scope: Scope): WritePlan {
  return { table: rt.table, pk: rt.pkColumn, pkKey: rt.pkKey, selection: rt.defaultSelection, scope, statements: statementSource(rt, scope) };
}

export const outsideScope = (rt: CrudRuntime, verb: string) => new TesseraError('FORBIDDEN', `the ${verb} row would fall outside your scope of ${rt.resourceName}`);
export const notFound = (rt: CrudRuntime) => new TesseraError('NOT_FOUND', `no ${rt.resourceName} row with that id`);

async function queryPage(rt: ResourcePlan, input: ListInput, scope: Scope, limit: number): Promise<{ rows: DbRow[]; fields: readonly FieldModel[] }> {
  const fields = selectedFields(rt, input.select);
  const rows = await selectPage(rt, { fields, where: input.where, orderBy: input.orderBy, limit, offset: input.offset ?? 0 }, scope);
  return { rows, fields };
}

export type ActionImpl = (rt: ResourcePlan, input: any, ctx: Context, scope: Scope) => Promise<unknown>;

/** The query step of each action, after validation, authorize and scope (the compiled handlers call these too). */
export const CRUD_QUERIES: Readonly<Record<CrudActionName, ActionImpl>> = {
  async list(rt, input: ListInput, ctx, scope) {
    const page = await queryPage(rt, input, scope, input.limit ?? rt.defaultLimit);
    const items = await serialize(rt, page.rows, page.fields, ctx);
    if (input.includeTotal !== true) return { items };
    return { items, total: await countRows(rt, input.where, scope) };
  },

  async get(rt, input: { id: unknown; select?: string[] }, ctx, scope) {
    const fields = selectedFields(rt, input.select);
    const rows = await selectById(rt, fields, decodeId(rt, input.id), scope);
    if (rows.length === 0) throw notFound(rt); // CONTRACT §3: a row outside scope looks missing
    return (await serialize(rt, rows, fields, ctx))[0];
  },

  async findOne(rt, input: ListInput, ctx, scope) {
    const page = await queryPage(rt, input, scope, 1);
    if (page.rows.length === 0) return null;
    return (await serialize(rt, page.rows, page.fields, ctx))[0];
  },

  async create(rt, input: Record<string, unknown>, ctx, scope) {
    let data = writeValues(rt.creatable, input);
    if (rt.hooks.beforeCreate !== null) data = checkHookData(rt, 'beforeCreate', (await rt.hooks.beforeCreate({ data, ctx })) ?? data);
    const row = await rt.dialect.insert(rt.db, writePlan(rt, scope), data);
    if (row === null) throw outsideScope(rt, 'created');
    const [result] = await serialize(rt, [row], rt.readable, ctx);
    if (rt.hooks.afterCreate !== null) await rt.hooks.afterCreate({ result, ctx });
    return result;
  },

  async update(rt, input: { id: unknown; data: Record<string, unknown> }, ctx, scope) {
    let data = writeValues(rt.updatable, input.data);
    if (rt.hooks.beforeUpdate !== null) data = checkHookData(rt, 'beforeUpdate', (await rt.hooks.beforeUpdate({ id: input.id, data, ctx })) ?? data);
    const row = await rt.dialect.update(rt.db, writePlan(rt, scope), decodeId(rt, input.id), data);
    if (row === ROW_MISSING) throw notFound(rt);
    if (row === null) throw outsideScope(rt, 'updated');
    const [result] = await serialize(rt, [row], rt.readable, ctx);
    if (rt.hooks.afterUpdate !== null) await rt.hooks.afterUpdate({ id: input.id, result, ctx });
    return result;
  },

  async delete(rt, input: { id: unknown }, ctx, scope) {
    const deleted = await rt.dialect.remove(rt.db, writePlan(rt, scope), decodeId(rt, input.id));
    if (!deleted) throw notFound(rt);
    const result = { success: true as const };
    if (rt.hooks.afterDelete !== null) await rt.hooks.afterDelete({ id: input.id, result, ctx });
    return result;
  },

  async count(rt, input: { where?: Where }, _ctx, scope) {
    return { count: await countRows(rt, input.where, scope) };
  },

  async exists(rt, input: { where?: Where }, _ctx, scope) {
    return { exists: await anyRow(rt, input.where, scope) };
  },
};

/** Any failure as the TesseraError the caller sees. */
export function toCrudError(rt: CrudRuntime, error: unknown): TesseraError {
  if (error instanceof TesseraError) return error;
  // CONTRACT §4: driver errors become CONFLICT or a fixed INTERNAL_ERROR; never the driver's text.
  const mapped = rt.dialect.mapDriverError(error);
  if (mapped !== null) return mapped;
  // The log line names the driver code and a value-free reason, so a missing table is diagnosable.
  const description = rt.dialect.describeDriverError(error);
  return new TesseraError('INTERNAL_ERROR', undefined, undefined, { cause: description === null ? error : new DatabaseError(description, { cause: error }) });
}

/**
 * Runs one crud action through the whole pipeline; every failure is a TesseraError. `routeScope` is the scope of
 * the HTTP route the call came through (null in-process).
 */
export async function runCrudAction(rt: ResourcePlan, action: CrudActionName, input: unknown, ctx: Context, routeScope: ScopeFunction | null): Promise<unknown> {
  const value = input === undefined && crudActionSpec(action).isInputOptional ? {} : input;
  try {
    assertValid(rt.validators.get(action), value);
    await authorizeCall(rt, action, value, ctx);
    const scope = await resolveScope(rt, action, ctx, routeScope);
    return await CRUD_QUERIES[action](rt, value, ctx, scope);
  } catch (error) {
    throw toCrudError(rt, error);
  }
}
