// Input validation with ajv: one factory for every validator Tessera compiles, and the translation of
// ajv's errors into CONTRACT §4 details (`{ path, message }`, path a JSON Pointer into the input).
import type Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, Options, ValidateFunction } from 'ajv/dist/2020';
import { TesseraError, type ErrorDetail } from './errors';

/**
 * Schema annotation: message templates per ajv keyword, for errors raised by this very schema object.
 * `{key}` is the offending property name, `{value}` the offending value, `{path}` where it is (`where.title`).
 */
export const MESSAGES_KEYWORD = 'x-messages';

/** The options of every ajv Tessera creates; `code` differs for the compiler's (standalone) ones only. */
function ajvOptions(code: NonNullable<Options['code']>): Options {
  // Not verbose: the schema and value of a failed check are looked up after the fact (model/error-context.ts),
  // which halves the code of every error. inlineRefs: false compiles each where definition and condition once
  // instead of inlining them into every validator that uses them.
  return { allErrors: false, verbose: false, strict: true, allowUnionTypes: true, inlineRefs: false, code };
}

/** The package entry that generated validators require for ajv's helpers and formats (runtime/validation-runtime.ts). */
export const VALIDATION_RUNTIME = 'tessera-api/validation-runtime';

/**
 * ajv and ajv-formats, loaded on the first compile: a bundle validates with code compiled ahead of time and
 * translating errors needs neither, so a server that compiles nothing starts without them (issue 16).
 */
function ajvModules() {
  return { ajv: require('ajv/dist/2020') as typeof import('ajv/dist/2020'), addFormats: (require('ajv-formats') as typeof import('ajv-formats')).default };
}

function configured(ajv: Ajv2020): Ajv2020 {
  ajvModules().addFormats(ajv);
  // The date-time of the validators compiled ahead of time (their formats come from validation-runtime) for these too.
  ajv.addFormat('date-time', (require('./validation-runtime') as typeof import('./validation-runtime')).storedDateTime);
  ajv.addKeyword(MESSAGES_KEYWORD);
  return ajv;
}

/** The one ajv that checks schemas against the JSON Schema meta-schema, for all the others. */
let metaSchemaChecker: Ajv2020 | null = null;

let sharedMetaSchemaAjv: typeof Ajv2020 | null = null;

/**
 * An ajv whose schemas are checked against the meta-schema by the shared checker: ajv compiles the meta-schema
 * once per instance, about 40 ms, which a server paid for each resource and a build twice (issue 16). The check is
 * the same one, with the same options, so an invalid schema fails with the same message. Made on first use, as
 * ajv loads then.
 */
function sharedMetaSchemaAjvClass(): typeof Ajv2020 {
  if (sharedMetaSchemaAjv === null) {
    const Ajv = ajvModules().ajv.default;
    sharedMetaSchemaAjv = class SharedMetaSchemaAjv extends Ajv {
      override validateSchema(schema: Parameters<Ajv2020['validateSchema']>[0], throwOrLogError?: boolean): boolean | Promise<unknown> {
        metaSchemaChecker ??= configured(new Ajv(ajvOptions({})));
        return metaSchemaChecker.validateSchema(schema, throwOrLogError);
      }
    };
  }
  return sharedMetaSchemaAjv;
}

/**
 * A fresh ajv, set up the same way everywhere: first error only (bounded work on hostile input), strict schemas.
 * `standalone` makes it keep each validator's source for the compiler (ajv standalone code); the options are
 * otherwise identical, so compiled and generic validators report the very same errors. `lineBreaks: false` has
 * ajv write that source without line breaks (a third fewer bytes); validators modules keep them, one statement per line.
 */
export function createAjv(options: { standalone?: boolean; lineBreaks?: boolean } = {}): Ajv2020 {
  const lines = options.lineBreaks !== false;
  const { _ } = ajvModules().ajv;
  // Generated code reaches ajv-formats through Tessera's own entry, as it does ajv's helpers (generator/emit/standalone-code.ts).
  const code = options.standalone === true ? { source: true, lines, formats: _`require(${VALIDATION_RUNTIME}).fullFormats` } : {};
  const SharedMetaSchemaAjv = sharedMetaSchemaAjvClass();
  return configured(new SharedMetaSchemaAjv(ajvOptions(code)));
}

function escapePointerToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** `/where/title/in` → `where.title.in`; the root is `input`. */
function describePath(pointer: string): string {
  if (pointer === '') return 'input';
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

function fillTemplate(template: string, error: ErrorObject): string {
  const key = String((error.params as { additionalProperty?: string }).additionalProperty ?? '');
  return template
    .replace(/\{key\}/g, key)
    .replace(/\{path\}/g, () => describePath(error.instancePath))
    .replace(/\{value\}/g, () => String(error.data));
}

/** `an array`, `a string`: ajv's type names with their article. */
function withArticle(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/** ajv's own wording for the keywords whose message can name what is allowed. */
function defaultMessage(error: ErrorObject, path: string): string {
  const where = describePath(path);
  if (error.keyword === 'enum') return `${where} must be one of ${(error.params as { allowedValues: unknown[] }).allowedValues.map((value) => String(value)).join(', ')}`;
  if (error.keyword === 'type') return `${where} must be ${String((error.params as { type: string | string[] }).type).split(',').map(withArticle).join(' or ')}`;
  return `${where} ${error.message ?? 'is invalid'}`;
}

/**
 * An `x-messages` entry: the message's template, or, for a rule over several fields (cursor beside offset), the
 * template with the field it is about (`at`, a pointer below the schema's own), which ajv cannot know.
 */
type MessageTemplate = string | { at: string; message: string };

function templateOf(error: ErrorObject): MessageTemplate | undefined {
  const templates = (error.parentSchema as Record<string, unknown> | undefined)?.[MESSAGES_KEYWORD] as Record<string, MessageTemplate> | undefined;
  return templates?.[error.keyword];
}

function toDetail(error: ErrorObject): ErrorDetail {
  let path = error.instancePath;
  if (error.keyword === 'additionalProperties') path += '/' + escapePointerToken((error.params as { additionalProperty: string }).additionalProperty);
  if (error.keyword === 'required') path += '/' + escapePointerToken((error.params as { missingProperty: string }).missingProperty);

  const template = templateOf(error);
  if (typeof template === 'object') return { path: path + template.at, message: fillTemplate(template.message, error) };
  if (template !== undefined) return { path, message: fillTemplate(template, error) };
  if (error.keyword === 'additionalProperties') return { path, message: `${describePath(path)} is not allowed` };
  if (error.keyword === 'required') return { path, message: `${describePath(path)} is required` };
  return { path, message: defaultMessage(error, path) };
}

/**
 * The problem ajv found. It stops at the first failing keyword, but an `anyOf` that fails reports each of its
 * branches' errors before its own: one problem still, told by the anyOf's own message where its schema gives one,
 * else by its first branch's.
 */
function firstProblem(errors: ErrorObject[]): ErrorObject[] {
  const last = errors[errors.length - 1];
  if (last === undefined || last.keyword !== 'anyOf') return errors;
  return templateOf(last) !== undefined ? [last] : errors.slice(0, 1);
}

/** The VALIDATION_ERROR for a failed validator, details sorted by path. */
export function validationError(errors: ErrorObject[] | null | undefined): TesseraError {
  const details = firstProblem(errors ?? []).map(toDetail).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const message = details.length > 0 ? details[0].message : 'input is invalid';
  return new TesseraError('VALIDATION_ERROR', message, details);
}

/**
 * False under `node --disallow-code-generation-from-strings` (how a built bundle runs): ajv cannot compile
 * there, and the bundle brings validators compiled ahead of time instead.
 */
export const canGenerateCode: boolean = (() => {
  try {
    new Function('');
    return true;
  } catch {
    return false;
  }
})();

/** The shape every validator has, whether ajv compiled it now or the compiler wrote it ahead of time. */
export interface Validator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** Validates or throws VALIDATION_ERROR. */
export function assertValid(validate: Validator, input: unknown): void {
  if (!validate(input)) throw validationError(validate.errors);
}

/**
 * Compiles on first use, not at definition time: a built bundle runs its ahead-of-time validators under
 * `node --disallow-code-generation-from-strings`, where ajv's compile (new Function) would throw.
 */
export class LazyValidators<K extends string> {
  readonly #schemas: Readonly<Record<K, object>>;
  readonly #compiled = new Map<K, Validator>();
  #ajv: Ajv2020 | null = null;

  constructor(schemas: Readonly<Record<K, object>>) {
    this.#schemas = schemas;
  }

  get(key: K): Validator {
    let validate = this.#compiled.get(key);
    if (validate === undefined) {
      // One ajv per owner (resource or action): its schemas never collide with another's.
      this.#ajv ??= createAjv();
      validate = this.#ajv.compile(this.#schemas[key]);
      this.#compiled.set(key, validate);
    }
    return validate;
  }

  /** Uses a validator compiled ahead of time (a built bundle's) instead of compiling one. */
  install(key: K, validate: Validator): void {
    this.#compiled.set(key, validate);
  }
}

export type { ValidateFunction };
