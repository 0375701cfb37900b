// The eight crud actions and the pipeline every call runs through, in-process and over HTTP
// (CONTRACT §2): input validation → authorize → scope → query → scrub.
import { crudActionSpec, type CrudActionName } from '../actions';
import { ROW_MISSING, type DbRow, type WritePlan } from '../dialects/dialect';
import { DatabaseError, TesseraError } from '../errors';
import type { OrderByEntry } from '../sql/order-by';
import { assertValid } from '../validation';
import type { CrudRuntime } from '../model/crud-runtime';
import type { FieldModel } from '../model/field-policy';
import type { AnyContext, ScopeFunction, Where } from '../model/options';
import { attachIncludes, attachNested, withJoinColumns } from '../sql/includes';
import type { NestedSelection } from '../sql/nested-includes';
import { authorizeCall, resolveScope } from './call-access';
import { nestedIncludes, relationRead, type RelationRead } from './relation-reads';
import { anyRow, countRows, selectById, selectPage, statementSource } from '../sql/read-queries';
import type { ResourcePlan, Scope } from '../sql/resource-plan';
import { fieldsToRead, serializeRows, type JsonRow } from '../model/row-serializer';
import { BULK_QUERIES } from './bulk-actions';
import { cursorRequest, takeNextCursor, withSortColumns, type CursorRequest } from './cursor-pages';
import { deleteWithIfMatch, updateWithIfMatch } from './conditional-writes';
import { withRowEtag } from './response-meta';
import { checkHookData, decodeId, writeValues } from './write-data';

export { checkHookData, writeValues } from './write-data';

interface ListInput {
  select?: string[];
  where?: Where;
  orderBy?: OrderByEntry[];
  limit?: number;
  offset?: number;
  includeTotal?: boolean;
  include?: Record<string, any>;
  cursor?: string | true;
}

export type { Scope } from '../sql/resource-plan';
export { authorizeCall, resolveScope } from './call-access';

function selectedFields(rt: CrudRuntime, select: readonly string[] | undefined): readonly FieldModel[] {
  if (select === undefined) return rt.readable;
  return rt.readable.filter((field) => select.includes(field.key));
}

function serialize(rt: CrudRuntime, rows: readonly DbRow[], fields: readonly FieldModel[], ctx: AnyContext): Promise<JsonRow[]> {
  const scrubbed = fields === rt.readable ? rt.readableScrubbed : fields.filter((field) => field.scrub !== null);
  return serializeRows(rows, fields, scrubbed, rt.readable, ctx);
}

function writePlan(rt: ResourcePlan, scope: Scope): WritePlan {
  return { table: rt.table, pk: rt.pkColumn, pkKey: rt.pkKey, selection: rt.defaultSelection, scope, statements: statementSource(rt, scope) };
}

export const outsideScope = (rt: CrudRuntime, verb: string) => new TesseraError('FORBIDDEN', `the ${verb} row would fall outside your scope of ${rt.resourceName}`);
export const notFound = (rt: CrudRuntime) => new TesseraError('NOT_FOUND', `no ${rt.resourceName} row with that id`);

/** A page's rows, its serialized fields and, where the includes came inside its statement, their selection. */
interface Page {
  rows: DbRow[];
  fields: readonly FieldModel[];
  nested: NestedSelection | null;
}

async function queryPage(rt: ResourcePlan, input: ListInput, scope: Scope, limit: number, read: RelationRead | null, cursor: CursorRequest | null = null): Promise<Page> {
  const fields = selectedFields(rt, input.select);
  const readFields = fieldsToRead(rt.readable, rt.readableScrubbed, fields);
  // CONTRACT §9: the includes come inside the statement where the dialect can, else the join columns they need are
  // read too (never serialized); relation filters are in the scope.
  const nested = read === null ? null : nestedIncludes(rt, read, read.scope);
  const source = read === null ? { columns: readFields, where: input.where, scope } : { columns: nested === null ? withJoinColumns(rt, readFields, read.includes) : readFields, where: read.where, scope: read.scope };
  // CONTRACT §10: a cursor page reads its sort keys too (never serialized) and starts after the cursor's row, not at an offset.
  const columns = cursor === null ? source.columns : withSortColumns(source.columns, cursor.keys);
  const page = { fields: columns, where: source.where, orderBy: input.orderBy, limit, offset: input.offset ?? 0, after: cursor === null ? null : cursor.after, nested };
  return { rows: await selectPage(rt, page, source.scope), fields, nested };
}

/** The relation work of a read (CONTRACT §9), for a resource that declares relations; null for the others. */
function readThroughRelations(rt: ResourcePlan, input: ListInput, ctx: AnyContext, scope: Scope): RelationRead | Promise<RelationRead> | null {
  return rt.relations.length === 0 ? null : relationRead(rt, input, ctx, scope);
}

/** The page's rows as the caller sees them, with their included rows. */
async function serializePage(rt: ResourcePlan, page: Page, read: RelationRead | null, ctx: AnyContext): Promise<JsonRow[]> {
  const items = await serialize(rt, page.rows, page.fields, ctx);
  if (read !== null && read.includes.length > 0) await (page.nested === null ? attachIncludes : attachNested)(read.includes, page.rows, items, ctx);
  return items;
}

export type ActionImpl = (rt: ResourcePlan, input: any, ctx: AnyContext, scope: Scope) => Promise<unknown>;

/** The query step of each action, after validation, authorize and scope (the compiled handlers call these too). */
export const CRUD_QUERIES: Readonly<Record<CrudActionName, ActionImpl>> = {
  async list(rt, input: ListInput, ctx, scope) {
    const read = await readThroughRelations(rt, input, ctx, scope);
    const limit = input.limit ?? rt.defaultLimit;
    const cursor = input.cursor === undefined ? null : cursorRequest(rt, input as ListInput & { cursor: string | true });
    // A cursor page reads one row more: whether it is there says whether a next page is.
    const page = await queryPage(rt, input, scope, cursor === null ? limit : limit + 1, read, cursor);
    const nextCursor = cursor === null ? undefined : takeNextCursor(rt, cursor, page.rows, limit);
    const items = await serializePage(rt, page, read, ctx);
    const total = input.includeTotal !== true ? undefined : read === null ? await countRows(rt, input.where, scope) : await countRows(rt, read.where, read.scope);
    if (nextCursor === undefined) return total === undefined ? { items } : { items, total };
    return total === undefined ? { items, nextCursor } : { items, total, nextCursor };
  },

  async get(rt, input: { id: unknown; select?: string[]; include?: Record<string, any> }, ctx, scope) {
    const fields = selectedFields(rt, input.select);
    const readFields = fieldsToRead(rt.readable, rt.readableScrubbed, fields);
    const read = await readThroughRelations(rt, input, ctx, scope);
    const nested = read === null ? null : nestedIncludes(rt, read, scope);
    const rows = await selectById(rt, read === null || nested !== null ? readFields : withJoinColumns(rt, readFields, read.includes), decodeId(rt, input.id), scope, nested);
    if (rows.length === 0) throw notFound(rt); // CONTRACT §3: a row outside scope looks missing
    const [result] = await serializePage(rt, { rows, fields, nested }, read, ctx);
    // CONTRACT §10: a row answered whole (no select, no include) carries the ETag of its answer.
    return input.select === undefined && (input as { include?: unknown }).include === undefined ? withRowEtag(rt, result, rows[0], rt.readableScrubbed.length > 0) : result;
  },

  async findOne(rt, input: ListInput, ctx, scope) {
    const read = await readThroughRelations(rt, input, ctx, scope);
    const page = await queryPage(rt, input, scope, 1, read);
    if (page.rows.length === 0) return null;
    return (await serializePage(rt, page, read, ctx))[0];
  },

  async create(rt, input: Record<string, unknown>, ctx, scope) {
    let data = writeValues(rt.creatable, input);
    if (rt.hooks.beforeCreate !== null) data = checkHookData(rt, 'beforeCreate', (await rt.hooks.beforeCreate({ data, ctx })) ?? data);
    const row = await rt.dialect.insert(rt.db, writePlan(rt, scope), data);
    if (row === null) throw outsideScope(rt, 'created');
    const [result] = await serialize(rt, [row], rt.readable, ctx);
    if (rt.hooks.afterCreate !== null) await rt.hooks.afterCreate({ result, ctx });
    return withRowEtag(rt, result, row, rt.readableScrubbed.length > 0 || rt.hooks.afterCreate !== null);
  },

  async update(rt, input: { id: unknown; data: Record<string, unknown>; ifMatch?: string }, ctx, scope) {
    let data = writeValues(rt.updatable, input.data);
    if (rt.hooks.beforeUpdate !== null) data = checkHookData(rt, 'beforeUpdate', (await rt.hooks.beforeUpdate({ id: input.id, data, ctx })) ?? data);
    const row =
      input.ifMatch === undefined
        ? await rt.dialect.update(rt.db, writePlan(rt, scope), decodeId(rt, input.id), data)
        : await updateWithIfMatch(rt, scope, decodeId(rt, input.id), data, input.ifMatch);
    if (row === ROW_MISSING) throw notFound(rt);
    if (row === null) throw outsideScope(rt, 'updated');
    const [result] = await serialize(rt, [row], rt.readable, ctx);
    if (rt.hooks.afterUpdate !== null) await rt.hooks.afterUpdate({ id: input.id, result, ctx });
    return withRowEtag(rt, result, row, rt.readableScrubbed.length > 0 || rt.hooks.afterUpdate !== null);
  },

  async delete(rt, input: { id: unknown; ifMatch?: string }, ctx, scope) {
    const deleted =
      input.ifMatch === undefined
        ? await rt.dialect.remove(rt.db, writePlan(rt, scope), decodeId(rt, input.id))
        : await deleteWithIfMatch(rt, scope, decodeId(rt, input.id), input.ifMatch);
    if (!deleted) throw notFound(rt);
    const result = { success: true as const };
    if (rt.hooks.afterDelete !== null) await rt.hooks.afterDelete({ id: input.id, result, ctx });
    return result;
  },

  async count(rt, input: { where?: Where }, ctx, scope) {
    const read = await readThroughRelations(rt, input, ctx, scope);
    return { count: read === null ? await countRows(rt, input.where, scope) : await countRows(rt, read.where, read.scope) };
  },

  async exists(rt, input: { where?: Where }, ctx, scope) {
    const read = await readThroughRelations(rt, input, ctx, scope);
    return { exists: read === null ? await anyRow(rt, input.where, scope) : await anyRow(rt, read.where, read.scope) };
  },

  ...BULK_QUERIES,
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
export async function runCrudAction(rt: ResourcePlan, action: CrudActionName, input: unknown, ctx: AnyContext, routeScope: ScopeFunction | null): Promise<unknown> {
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
