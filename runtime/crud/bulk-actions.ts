// The writes of CONTRACT §10, each one transaction, all or nothing: createMany, updateMany, deleteMany and upsert.
// Before-hooks run per row ahead of the transaction (better-sqlite3 cannot await inside one), after-hooks per row
// once it committed, as for the single-row writes; scope applies to every row matched, read or written.
import type { SQL } from 'drizzle-orm';
import type { OptInActionName } from '../actions';
import { OutsideScope, type DbRow } from '../dialects/dialect';
import { TesseraError } from '../errors';
import type { CrudRuntime } from '../model/crud-runtime';
import type { AnyContext as Context, Where } from '../model/options';
import { serializeRows, type JsonRow } from '../model/row-serializer';
import { deleteMatching, KeyOutsideScope, PreconditionFailed, keyExists, MatchChanged, matchingKeys, TooManyRows, updateMatching, upsertRow, type BulkPlan } from '../sql/bulk-writes';
import { insertMany } from '../sql/bulk-inserts';
import type { ResourcePlan, Scope } from '../sql/resource-plan';
import { whereCondition as filterCondition } from './relation-filters';
import { ifMatchHolds, rowEtag, withRowEtag, withStatus } from './response-meta';
import { checkHookData, decodeId, writeValues } from './write-data';

type BulkAction = (rt: ResourcePlan, input: any, ctx: Context, scope: Scope) => Promise<unknown>;

export function bulkPlan(rt: ResourcePlan, scope: Scope): BulkPlan {
  return { table: rt.table, pk: rt.pkColumn, pkKey: rt.pkKey, selection: rt.defaultSelection, scope };
}

function serialize(rt: CrudRuntime, rows: readonly DbRow[], ctx: Context): Promise<JsonRow[]> {
  return serializeRows(rows, rt.readable, rt.readableScrubbed, rt.readable, ctx);
}

/**
 * The validated where (non-empty: the input schema says so) as SQL, its relation filters (CONTRACT §9) as a list's:
 * each related resource's authorize and list scope run before anything is read or written.
 */
async function whereCondition(rt: ResourcePlan, where: Where, ctx: Context): Promise<SQL> {
  return (await filterCondition(rt, where, ctx))!;
}

/** The key as the row's JSON carries it (a bigint key as a decimal string), for hooks. */
function keyJson(rt: CrudRuntime, key: unknown): unknown {
  return rt.pkCodec === null || key === null ? key : rt.pkCodec.encode(key);
}

/** If-Match as a check of the locked row (CONTRACT §10), or null without one. */
export function ifMatchCheck(rt: CrudRuntime, ifMatch: string | undefined): ((row: DbRow) => boolean) | null {
  return ifMatch === undefined ? null : (row) => ifMatchHolds(ifMatch, rowEtag(rt, row));
}

/** The transaction's own refusals as the errors the caller sees; anything else (driver errors) passes on. */
export async function transaction<T>(rt: ResourcePlan, verb: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof OutsideScope) throw new TesseraError('FORBIDDEN', `a ${verb} row would fall outside your scope of ${rt.resourceName}; nothing was written`);
    if (error instanceof TooManyRows) {
      const message = `where matches ${error.matched} rows of ${rt.resourceName}, more than maxAffected (${rt.maxAffected}); nothing was changed`;
      throw new TesseraError('VALIDATION_ERROR', message, [{ path: '/where', message }]);
    }
    if (error instanceof KeyOutsideScope) throw new TesseraError('CONFLICT', `a ${rt.resourceName} row with that id exists outside your scope; nothing was written`);
    if (error instanceof PreconditionFailed) throw new TesseraError('PRECONDITION_FAILED', `the ${rt.resourceName} row changed since that ETag was read (If-Match); nothing was written`);
    if (error instanceof MatchChanged) throw new TesseraError('CONFLICT', `the ${rt.resourceName} rows changed while the hooks ran; nothing was written, try again`);
    throw error;
  }
}

export const BULK_QUERIES: Readonly<Record<OptInActionName, BulkAction>> = {
  async createMany(rt, input: { items: Record<string, unknown>[] }, ctx, scope) {
    const rows: Record<string, unknown>[] = [];
    for (const item of input.items) {
      const data = writeValues(rt.creatable, item);
      rows.push(rt.hooks.beforeCreate === null ? data : checkHookData(rt, 'beforeCreate', (await rt.hooks.beforeCreate({ data, ctx })) ?? data));
    }
    const written = await transaction(rt, 'created', () => insertMany(rt, bulkPlan(rt, scope), rows));
    const items = await serialize(rt, written, ctx);
    if (rt.hooks.afterCreate !== null) for (const result of items) await rt.hooks.afterCreate({ result, ctx });
    return { items };
  },

  async updateMany(rt, input: { where: Where; data: Record<string, unknown> }, ctx, scope) {
    const plan = bulkPlan(rt, scope);
    const where = await whereCondition(rt, input.where, ctx);
    const values = writeValues(rt.updatable, input.data);
    const { beforeUpdate, afterUpdate } = rt.hooks;
    let change: Parameters<typeof updateMatching>[3] = { values };
    if (beforeUpdate !== null) {
      // The hook gives each matched row its data; the transaction then updates exactly those rows, or nothing.
      const keys = await transaction(rt, 'updated', () => rt.dialect.transact(rt.db, () => matchingKeys(plan, where, rt.maxAffected, false)));
      const valuesOf = new Map<string, Record<string, unknown>>();
      for (const key of keys) {
        const data = { ...values };
        valuesOf.set(String(key), checkHookData(rt, 'beforeUpdate', (await beforeUpdate({ id: keyJson(rt, key), data, ctx })) ?? data));
      }
      change = { valuesOf };
    }
    const updated = await transaction(rt, 'updated', () => rt.dialect.transact(rt.db, () => updateMatching(plan, where, rt.maxAffected, change, afterUpdate !== null)));
    if (afterUpdate !== null) {
      const results = await serialize(rt, updated.rows, ctx);
      for (let index = 0; index < results.length; index++) await afterUpdate({ id: keyJson(rt, updated.keys[index]), result: results[index], ctx });
    }
    return { count: updated.keys.length };
  },

  async deleteMany(rt, input: { where: Where }, ctx, scope) {
    const where = await whereCondition(rt, input.where, ctx);
    const keys = await transaction(rt, 'deleted', () => rt.dialect.transact(rt.db, () => deleteMatching(bulkPlan(rt, scope), where, rt.maxAffected)));
    if (rt.hooks.afterDelete !== null) for (const key of keys) await rt.hooks.afterDelete({ id: keyJson(rt, key), result: { success: true }, ctx });
    return { count: keys.length };
  },

  async upsert(rt, input: { id: unknown; data: Record<string, unknown>; ifMatch?: string }, ctx, scope) {
    if (Object.hasOwn(input.data, rt.pkKey) && input.data[rt.pkKey] !== input.id) {
      const message = `data.${rt.pkKey} must be the id of the path (or left out)`;
      throw new TesseraError('VALIDATION_ERROR', message, [{ path: `/data/${rt.pkKey.replace(/~/g, '~0').replace(/\//g, '~1')}`, message }]);
    }
    const plan = bulkPlan(rt, scope);
    const id = decodeId(rt, input.id);
    let create = writeValues(rt.creatable, input.data);
    let update = writeValues(rt.updatable, input.data);
    const { beforeCreate, beforeUpdate } = rt.hooks;
    let existed: boolean | null = null;
    if (beforeCreate !== null || beforeUpdate !== null) {
      // Which hook runs depends on whether the row exists; the transaction refuses if that changed meanwhile.
      existed = await transaction(rt, 'written', () => rt.dialect.transact(rt.db, () => keyExists(plan, id)));
      if (existed && beforeUpdate !== null) update = checkHookData(rt, 'beforeUpdate', (await beforeUpdate({ id: input.id, data: update, ctx })) ?? update);
      if (!existed && beforeCreate !== null) create = checkHookData(rt, 'beforeCreate', (await beforeCreate({ data: create, ctx })) ?? create);
    }
    // The key comes from the path: a new row gets it whatever its default would be.
    const written = await transaction(rt, 'written', () => rt.dialect.transact(rt.db, () => upsertRow(plan, id, { create: { ...create, [rt.pkKey]: id }, update, existed, matches: ifMatchCheck(rt, input.ifMatch) })));
    const [result] = await serialize(rt, [written.row], ctx);
    if (written.isCreated && rt.hooks.afterCreate !== null) await rt.hooks.afterCreate({ result, ctx });
    if (!written.isCreated && rt.hooks.afterUpdate !== null) await rt.hooks.afterUpdate({ id: input.id, result, ctx });
    const afterHook = written.isCreated ? rt.hooks.afterCreate : rt.hooks.afterUpdate;
    withRowEtag(rt, result, written.row, rt.readableScrubbed.length > 0 || afterHook !== null);
    return written.isCreated ? withStatus(result, 201) : result;
  },
};
