// A service's custom action (spec §4.1): its input validated when it declares a schema, then the user's handler,
// its driver errors mapped (CONTRACT §4); mounted at `POST ${prefix}/<service>/<name>` and callable in-process.
import type { Dialect } from './dialects';
import { SetupError, TesseraError } from './errors';
import type { JsonSchema } from './json-schema';
import type { Context } from './model/context';
import type { AnyContext } from './model/options';
import { idParserFor, type ActionRoute, type ServiceActionSource } from './route';
import { assertValid, canGenerateCode, LazyValidators } from './validation';

export interface ServiceActionDefinition<TDb, TInput = any, TOutput = unknown, TContext = Context> {
  /** JSON Schema of the input; without it any JSON value is accepted. */
  input?: JsonSchema;
  /** JSON Schema of the output, for documentation. */
  output?: JsonSchema;
  handler: (args: { input: TInput; ctx: TContext; db: TDb }) => TOutput | Promise<TOutput>;
}

/** A custom action as the server and the services route see it. */
export interface ServiceAction {
  readonly name: string;
  readonly input: JsonSchema | undefined;
  readonly output: JsonSchema | undefined;
  readonly route: ActionRoute;
}

export type ServiceActionCall<TInput, TOutput, TContext = Context> = (call?: { input?: TInput; ctx?: TContext }) => Promise<Awaited<TOutput>>;

/** What an action reads of its service. */
interface ActionOwner<TDb> {
  readonly name: string;
  readonly db: TDb;
  readonly dialect: Dialect;
}

/** The action `name` of `owner` (its name already checked): its route, and the in-process call. */
export function serviceAction<TDb, TInput, TOutput, TContext>(
  owner: ActionOwner<TDb>,
  name: string,
  definition: ServiceActionDefinition<TDb, TInput, TOutput, TContext>,
): { action: ServiceAction; call: ServiceActionCall<TInput, TOutput, TContext> } {
  if (typeof definition?.handler !== 'function') throw new SetupError(`${owner.name}.${name}: handler must be a function`);
  const validators = definition.input === undefined ? null : new LazyValidators({ input: definition.input });
  // A bad schema is a setup error at declaration; a bundle (no code generation) checked it at build time.
  if (validators !== null && canGenerateCode) {
    try {
      validators.get('input');
    } catch (error) {
      throw new SetupError(`${owner.name}.${name}: input is not a valid JSON Schema: ${(error as Error).message}`);
    }
  }
  const { db, dialect } = owner;
  const invoke = async (input: unknown, ctx: AnyContext): Promise<unknown> => {
    try {
      // The context factory's (or in-process caller's) object is the declared context: the types promise it, nothing checks it.
      return await definition.handler({ input: input as TInput, ctx: ctx as TContext, db });
    } catch (error) {
      throw error instanceof TesseraError ? error : (dialect.mapDriverError(error) ?? new TesseraError('INTERNAL_ERROR', undefined, undefined, { cause: error }));
    }
  };
  const run = async (input: unknown, ctx: AnyContext): Promise<unknown> => {
    if (validators !== null) assertValid(validators.get('input'), input);
    return invoke(input, ctx);
  };
  const source: ServiceActionSource = { kind: 'service-action', label: `${owner.name}.${name}`, input: definition.input, validators, invoke };
  const route: ActionRoute = { action: name, method: 'POST', path: `/${owner.name}/${name}`, status: 200, input: 'body', parseId: idParserFor({}), run, source };
  return { action: { name, input: definition.input, output: definition.output, route }, call: (call) => run(call?.input, (call?.ctx ?? {}) as AnyContext) as Promise<Awaited<TOutput>> };
}
