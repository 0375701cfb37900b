// Everything generated handler code may call (STYLE "specialize, then call the runtime"): the pipeline
// steps with real logic live here once, shared with the generic handler, so the modes agree by construction.
import type { CrudActionName } from '../actions';
import { authorizeCall, CRUD_QUERIES, notFound, resolveScope, toCrudError, writeValues, type Scope } from '../crud/actions';
import { fixedInsert, fixedUpdate } from '../sql/fixed-writes';
import type { ResourcePlan } from '../sql/resource-plan';
import type { AnyContext, ScopeFunction } from '../model/options';
import { COLUMN_CODECS } from '../model/column-schema';
import { validationError } from '../validation';
import { crudInputReader } from './http-input';
import { sendJson, sendJsonText } from './send-json';
import { fixedPageStatements, fixedStatement, readableDecoders } from '../sql/fixed-execution';

export const compiledApi = Object.freeze({
  /** `res.status(status).json(value)`, written directly (the same bytes; see send-json.ts). */
  sendJson,
  /** The same, for a body a generated row writer wrote. */
  sendJsonText,
  /** How a crud route reads its input from the request (the `:id` parsed for the key's type), as the generic handler reads it. */
  inputReader: (rt: ResourcePlan, action: CrudActionName) => crudInputReader(rt, action),
  /** A fixed shape's statement (the SQL the compiler wrote), through the driver; null when the statement cache is off. */
  statement: (rt: ResourcePlan, shape: string, text: string) => fixedStatement(rt, shape, text),
  /** The page statements of a dialect that writes the LIMIT into the SQL, by page size; null when the cache is off. */
  pageStatements: (rt: ResourcePlan, shape: string, aroundLimit: readonly [string, string]) => fixedPageStatements(rt, shape, aroundLimit),
  /** create through the driver (RETURNING databases, cache on): one statement per set of written columns; else null. */
  insertStatement: (rt: ResourcePlan) => fixedInsert(rt),
  /** update by id through the driver (RETURNING databases, cache on); else null. */
  updateStatement: (rt: ResourcePlan) => fixedUpdate(rt),
  /** The column values of a create (`create`) or an update's data (`update`), decoded from their JSON forms. */
  writeData: (rt: ResourcePlan, kind: 'create' | 'update', data: Record<string, unknown>) => writeValues(kind === 'create' ? rt.creatable : rt.updatable, data),
  /** Drizzle's decoders of the readable columns that have one, for generated row writers. */
  decoders: (rt: ResourcePlan) => readableDecoders(rt),
  /** VALIDATION_ERROR from an ahead-of-time validator's errors (same details as the generic path). */
  validationError,
  authorize: (rt: ResourcePlan, action: CrudActionName, input: unknown, ctx: AnyContext): Promise<void> => authorizeCall(rt, action, input, ctx),
  /** The access scope, ANDed with the route's own scope when the route has one (`routes.<action>.scope`). */
  scope: (rt: ResourcePlan, action: CrudActionName, ctx: AnyContext, routeScope: ScopeFunction | null = null): Promise<Scope> => resolveScope(rt, action, ctx, routeScope),
  /** The action's query step, exactly as the generic pipeline runs it. */
  query: (rt: ResourcePlan, action: CrudActionName, input: unknown, ctx: AnyContext, scope: Scope): Promise<unknown> => CRUD_QUERIES[action](rt, input, ctx, scope),
  /** JSON forms of dates, bigints and binary values (CONTRACT §2 Row). */
  codecs: COLUMN_CODECS,
  notFound,
  /** Any failure as the TesseraError the caller sees (driver errors mapped, never their text). */
  crudError: toCrudError,
});

export type CompiledApi = typeof compiledApi;
