// Everything generated handler code may call (STYLE "specialize, then call the runtime"): the pipeline
// steps with real logic live here once, shared with the generic handler, so the modes agree by construction.
import type { CrudActionName } from '../actions';
import { authorizeCall, CRUD_QUERIES, notFound, resolveScope, toCrudError, type Scope } from '../crud/actions';
import type { CrudRuntime } from '../crud/crud-runtime';
import type { Context } from '../crud/options';
import { COLUMN_CODECS } from '../crud/column-schema';
import { serializeRows } from '../crud/row-serializer';
import type { DbRow } from '../dialects/dialect';
import { selectById, selectPage } from '../crud/read-queries';
import { validationError } from '../validation';
import { sendJson } from './send-json';

export const compiledApi = Object.freeze({
  /** `res.status(status).json(value)`, written directly (the same bytes; see send-json.ts). */
  sendJson,
  /** VALIDATION_ERROR from an ahead-of-time validator's errors (same details as the generic path). */
  validationError,
  authorize: (rt: CrudRuntime, action: CrudActionName, input: unknown, ctx: Context): Promise<void> => authorizeCall(rt, action, input, ctx),
  scope: (rt: CrudRuntime, action: CrudActionName, ctx: Context): Promise<Scope> => resolveScope(rt, action, ctx),
  /** The action's query step, exactly as the generic pipeline runs it. */
  query: (rt: CrudRuntime, action: CrudActionName, input: unknown, ctx: Context, scope: Scope): Promise<unknown> => CRUD_QUERIES[action](rt, input, ctx, scope),
  /** Serializes with the fields' scrub functions (resources whose rows cannot be serialized inline). */
  serializeReadable: (rt: CrudRuntime, rows: readonly DbRow[], ctx: Context) => serializeRows(rows, rt.readable, rt.readableScrubbed, ctx),
  /** spec §8 rule 4: the readable fields of the row with this id, through the get statement prepared at construction. */
  rowsById: (rt: CrudRuntime, id: unknown) => selectById(rt, rt.readable, id, undefined),
  /** spec §8 rule 4: a page in primary-key order over the readable fields, through the list statement prepared at construction. */
  pageInKeyOrder: (rt: CrudRuntime, limit: number, offset: number) => selectPage(rt, { fields: rt.readable, where: undefined, orderBy: undefined, limit, offset }, undefined),
  /** JSON forms of dates, bigints and binary values (CONTRACT §2 Row). */
  codecs: COLUMN_CODECS,
  notFound,
  /** Any failure as the TesseraError the caller sees (driver errors mapped, never their text). */
  crudError: toCrudError,
});

export type CompiledApi = typeof compiledApi;
