// Everything generated handler code may call (STYLE "specialize, then call the runtime"): the pipeline
// steps with real logic live here once, shared with the generic handler, so the modes agree by construction.
import type { CrudActionName } from '../actions';
import { authorizeCall, checkHookData, CRUD_QUERIES, notFound, outsideScope, resolveScope, toCrudError, writeValues, type Scope } from '../crud/actions';
import { ROW_MISSING } from '../dialects/dialect';
import { scrubRows, type JsonRow } from '../model/row-serializer';
import { compiledCount, compiledDelete, compiledExists, compiledGet, compiledPage } from '../sql/compiled-reads';
import { compiledInsert, compiledUpdate } from '../sql/compiled-writes';
import type { ResourcePlan } from '../sql/resource-plan';
import type { AnyContext, ScopeFunction } from '../model/options';
import { COLUMN_CODECS } from '../model/column-schema';
import { validationError } from '../validation';
import { crudInputReader } from './http-input';
import { sendJson, sendJsonText, sendRow, sendRowText } from './send-json';
import { readableDecoders } from '../sql/fixed-execution';
import { isPending } from '../model/maybe-pending';

export const compiledApi = Object.freeze({
  /** Whether a step's answer is a promise (or any thenable) to await; a plain value is used as it is, without an await's microtask. */
  isPending,
  /** `res.status(status).json(value)`, written directly (the same bytes; see send-json.ts). */
  sendJson,
  /** The same, for a body a generated row writer wrote. */
  sendJsonText,
  /** The same, for a whole row a generated row writer wrote, with its ETag (CONTRACT §10). */
  sendRowText,
  /** The same, for a row object (scrubbed, or after an after-hook) given its JSON text before them (CONTRACT §10: the ETag names the answer). */
  sendRow,
  /** How a crud route reads its input from the request (the `:id` parsed for the key's type), as the generic handler reads it. */
  inputReader: (rt: ResourcePlan, action: CrudActionName) => crudInputReader(rt, action),
  /**
   * The default calls without Drizzle (issue 27), each `(…, scope)`: the fixed shape's cached statement where spec §8
   * allows (`text`, else null), else the same SQL, written once, prepared for the call with the scope's condition.
   */
  getById: (rt: ResourcePlan, text: string | null) => compiledGet(rt, text),
  page: (rt: ResourcePlan, text: string | readonly [string, string] | null) => compiledPage(rt, text),
  count: (rt: ResourcePlan, text: string | null) => compiledCount(rt, text),
  exists: (rt: ResourcePlan, text: string | null) => compiledExists(rt, text),
  deleteById: (rt: ResourcePlan, text: string | null) => compiledDelete(rt, text),
  /** create and update after the hooks: application functions' values bound per row, the row read back inside the scope; synchronous on SQLite. */
  insertRow: (rt: ResourcePlan) => compiledInsert(rt),
  updateRow: (rt: ResourcePlan) => compiledUpdate(rt),
  /** What updateRow answers when no row with that id is inside the scope. */
  rowMissing: ROW_MISSING,
  /** A before-hook's answer (or the data, when it answered nothing), checked as the runtime checks it. */
  hookData: (rt: ResourcePlan, hook: 'beforeCreate' | 'beforeUpdate', answer: unknown, data: Record<string, unknown>) => checkHookData(rt, hook, answer ?? data),
  /** The scrubs of the readable fields over rows in their JSON form (readRow's), in place. */
  scrub: (rt: ResourcePlan, rows: JsonRow[], ctx: AnyContext): void | Promise<void> => scrubRows(rows, rt.readableScrubbed, ctx),
  /** FORBIDDEN: the written row would fall outside the caller's scope (rolled back). */
  outsideScope: (rt: ResourcePlan, verb: string) => outsideScope(rt, verb),
  /** The column values of a create (`create`) or an update's data (`update`), decoded from their JSON forms. */
  writeData: (rt: ResourcePlan, kind: 'create' | 'update', data: Record<string, unknown>) => writeValues(kind === 'create' ? rt.creatable : rt.updatable, data),
  /** Drizzle's decoders of the readable columns that have one, for generated row writers. */
  decoders: (rt: ResourcePlan) => readableDecoders(rt),
  /** VALIDATION_ERROR from an ahead-of-time validator's errors (same details as the generic path). */
  validationError,
  authorize: (rt: ResourcePlan, action: CrudActionName, input: unknown, ctx: AnyContext): void | Promise<void> => authorizeCall(rt, action, input, ctx),
  /** The access scope, ANDed with the route's own scope when the route has one (`routes.<action>.scope`). */
  scope: (rt: ResourcePlan, action: CrudActionName, ctx: AnyContext, routeScope: ScopeFunction | null = null): Scope | Promise<Scope> => resolveScope(rt, action, ctx, routeScope),
  /** The action's query step, exactly as the generic pipeline runs it. */
  query: (rt: ResourcePlan, action: CrudActionName, input: unknown, ctx: AnyContext, scope: Scope): Promise<unknown> => CRUD_QUERIES[action](rt, input, ctx, scope),
  /** JSON forms of dates, bigints and binary values (CONTRACT §2 Row). */
  codecs: COLUMN_CODECS,
  notFound,
  /** Any failure as the TesseraError the caller sees (driver errors mapped, never their text). */
  crudError: toCrudError,
});

export type CompiledApi = typeof compiledApi;
