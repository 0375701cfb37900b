// Input validation with ajv: one factory for every validator Tessera compiles, and the validators' common shape; the
// translation of their errors into CONTRACT §4 details is validation-errors.ts.
import type Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject, Options, ValidateFunction } from 'ajv/dist/2020';
import { MESSAGES_KEYWORD, validationError } from './validation-errors';

export { MESSAGES_KEYWORD, validationError };

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
