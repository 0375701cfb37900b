// The validators of a crud resource's actions, from one validation document: every action's input schema
// under `$defs`, sharing the where grammar, so one ajv per resource compiles each part once (and the compiler
// writes it once per resource). Validators compiled ahead of time (a bundle's) are installed instead.
// list, findOne, count and exists check the where depth first (where-depth.ts), and its totals last (where-limits.ts).
import { createHash } from 'node:crypto';
import type { ErrorObject } from 'ajv/dist/2020';
import { CRUD_ACTION_NAMES, type CrudActionName, type OptInActionName } from '../actions';
import { tooDeepWherePath, TOO_DEEP_MESSAGE } from './where-depth';
import { whereTotalsProblem, type WhereLimits } from './where-limits';
import { createAjv, MESSAGES_KEYWORD, type Validator } from '../validation';
import { withErrorContext } from './error-context';
import type { JsonSchema } from '../json-schema';
import type { InputSchemas } from './input-schemas';

/** The `$id` of every resource's validation document (one ajv holds one document). */
export const VALIDATION_DOCUMENT_ID = 'tessera:inputs';

export interface ValidationDocument {
  /** `{ $id, $defs }`: the shared definitions and one `input_<action>` per distinct input schema. */
  readonly schema: JsonSchema;
  /** Each action's schema as a ref into the document (list and findOne share one, as do count and exists); opt-in actions only when on. */
  readonly refs: Readonly<Record<Exclude<CrudActionName, OptInActionName>, string> & Partial<Record<OptInActionName, string>>>;
}

/** The document of `inputSchemas` (input-schemas.ts): their shared `$defs` once, each distinct input once. */
export function validationDocument(inputSchemas: Readonly<InputSchemas>): ValidationDocument {
  const $defs: Record<string, JsonSchema> = { ...((inputSchemas.list.$defs ?? {}) as Record<string, JsonSchema>) };
  const refs = {} as Record<CrudActionName, string>;
  const defOf = new Map<JsonSchema, string>();
  for (const action of CRUD_ACTION_NAMES) {
    const schema = inputSchemas[action];
    if (schema === undefined) continue; // an opt-in action that is off
    let def = defOf.get(schema);
    if (def === undefined) {
      def = `input_${action}`;
      defOf.set(schema, def);
      const { $defs: _shared, ...input } = schema;
      $defs[def] = input;
    }
    refs[action] = `${VALIDATION_DOCUMENT_ID}#/$defs/${def}`;
  }
  return { schema: { $id: VALIDATION_DOCUMENT_ID, $defs }, refs };
}

/** The actions whose input holds a where. */
const WHERE_ACTIONS: ReadonlySet<CrudActionName> = new Set(['list', 'findOne', 'count', 'exists', 'updateMany', 'deleteMany']);

/** The error a where limit check reports, shaped as ajv's so validationError() renders it like any other. */
function whereLimitError(path: string, message: string): ErrorObject {
  return { instancePath: path, schemaPath: '#/where/limits', keyword: 'not', params: {}, message, parentSchema: { [MESSAGES_KEYWORD]: { not: message } } };
}

/**
 * `validate` as every crud path calls it: behind the where depth check of CONTRACT §2 (`checksWhere`), and with
 * the failed check's schema and value added to its errors, for the messages (error-context.ts).
 */
/** The relation parts of an input (CONTRACT §9), checked after the resource's own schema: errors, or null. */
export type RelationCheck = (action: CrudActionName, data: unknown) => ErrorObject[] | null;

function checked(
  action: CrudActionName,
  validate: Validator,
  root: JsonSchema,
  defs: Record<string, JsonSchema>,
  whereLimits: WhereLimits | null,
  relationCheck: () => RelationCheck | null,
): Validator {
  const validator: Validator = (data: unknown): boolean => {
    const where = whereLimits !== null && typeof data === 'object' && data !== null ? (data as { where?: unknown }).where : undefined;
    const tooDeep = where === undefined ? null : tooDeepWherePath(where);
    if (tooDeep !== null) {
      validator.errors = [whereLimitError(tooDeep, TOO_DEEP_MESSAGE)];
      return false;
    }
    if (validate(data)) {
      // CONTRACT §9: includes and relation filters, against the related resources' policies (before the totals,
      // which walk the inner wheres as well).
      const check = relationCheck();
      const relationErrors = check === null ? null : check(action, data);
      if (relationErrors !== null) {
        validator.errors = relationErrors;
        return false;
      }
      // Issue 32: request-wide totals, once the where is known valid (so its shape is known).
      const beyond = where === undefined ? null : whereTotalsProblem(where as Record<string, unknown>, whereLimits!);
      validator.errors = beyond === null ? null : [whereLimitError('/where', beyond)];
      return beyond === null;
    }
    validator.errors = withErrorContext(validate.errors ?? [], root, defs, data);
    return false;
  };
  validator.errors = null;
  return validator;
}

/** Every action's validator, compiled ahead of time: a validators module's exports. */
export type CompiledValidators = Readonly<Partial<Record<CrudActionName, Validator>>>;

/**
 * The action's compiled validator, its module loaded on the first validation rather than when a handler is
 * created (issue 16): a bundle starts without loading every resource's validators.
 */
function onFirstCall(load: () => CompiledValidators, action: CrudActionName): Validator {
  let validate: Validator | null = null;
  const validator: Validator = (data: unknown): boolean => {
    validate ??= load()[action]!;
    const isValid = validate(data);
    validator.errors = validate.errors;
    return isValid;
  };
  return validator;
}

export class ResourceValidators {
  readonly document: ValidationDocument;
  readonly #whereLimits: WhereLimits;
  readonly #ready = new Map<CrudActionName, Validator>();
  #ajv: ReturnType<typeof createAjv> | null = null;
  #compiled: (() => CompiledValidators) | null = null;
  #fingerprint: string | null = null;
  #relationCheck: RelationCheck | null = null;

  constructor(document: ValidationDocument, whereLimits: WhereLimits) {
    this.document = document;
    this.#whereLimits = whereLimits;
  }

  /**
   * The action's validator: the one compiled ahead of time when installed, else compiled by ajv, on first use either
   * way (never at definition: a bundle may forbid code generation, and loads a resource's module when it is needed).
   */
  get(action: CrudActionName): Validator {
    let validate = this.#ready.get(action);
    if (validate === undefined) {
      validate = this.#wrap(action, this.#compiled === null ? this.#compile(action) : onFirstCall(this.#compiled, action));
      this.#ready.set(action, validate);
    }
    return validate;
  }

  #compile(action: CrudActionName): Validator {
    if (this.#ajv === null) {
      this.#ajv = createAjv();
      this.#ajv.addSchema(this.document.schema);
    }
    return this.#ajv.getSchema(this.#refOf(action))!;
  }

  /** @internal The crud plugin's check of includes and relation filters, for a resource with relations. */
  checkRelations(check: RelationCheck): void {
    this.#relationCheck = check;
  }

  /** Uses the validators compiled ahead of time (a bundle's, or the compiler's at construction); `load` runs on first use. */
  install(load: () => CompiledValidators): void {
    this.#compiled = load;
    this.#ready.clear();
  }

  /**
   * A digest of the document: a compilation built from other definitions (a stale bundle) has another one,
   * and is refused rather than validating with rules that no longer hold.
   */
  get fingerprint(): string {
    this.#fingerprint ??= createHash('sha256').update(JSON.stringify(this.document.schema)).digest('hex').slice(0, 16);
    return this.#fingerprint;
  }

  /** The action's schema in the document; an opt-in action that is off has none, and is never called. */
  #refOf(action: CrudActionName): string {
    const ref = this.document.refs[action];
    if (ref === undefined) throw new Error(`${action} is not an operation of this resource`);
    return ref;
  }

  #wrap(action: CrudActionName, validate: Validator): Validator {
    const defs = this.document.schema.$defs as Record<string, JsonSchema>;
    const root = defs[this.#refOf(action).slice(`${VALIDATION_DOCUMENT_ID}#/$defs/`.length)];
    return checked(action, validate, root, defs, WHERE_ACTIONS.has(action) ? this.#whereLimits : null, () => this.#relationCheck);
  }
}
