// A service: a name, a drizzle database, its resources and its custom actions.
import type { Table } from 'drizzle-orm';
import type { Context, JsonSchema } from './crud/options';
import { dialectOfDatabase, type Dialect } from './dialects';
import { checkTimeouts, type DatabaseTimeouts, type EffectiveTimeouts } from './dialects/database-timeouts';
import { SetupError, TesseraError } from './errors';
import { checkName } from './names';
import { registerService } from './registry';
import { Resource, type ResourceDeclaration } from './resource';
import { idParserFor, type ActionRoute, type ServiceActionSource } from './route';
import { assertValid, canGenerateCode, LazyValidators } from './validation';

export interface ServiceDeclaration<TDb> {
  name: string;
  /** A drizzle database: better-sqlite3, mysql2 or node-postgres. */
  db: TDb;
  /**
   * Bounds on waiting for the database, in milliseconds (docs/databases.md): opening a connection (default 5,000),
   * waiting for a free pooled one (5,000) and one statement's answer (10,000). Past them a request answers 503.
   * A timeout the client already sets stays unless named here. SQLite has none: it runs in the process.
   */
  timeouts?: DatabaseTimeouts;
}

export interface ServiceActionDefinition<TDb, TInput = any, TOutput = unknown> {
  /** JSON Schema of the input; without it any JSON value is accepted. */
  input?: JsonSchema;
  /** JSON Schema of the output, for documentation. */
  output?: JsonSchema;
  handler: (args: { input: TInput; ctx: Context; db: TDb }) => TOutput | Promise<TOutput>;
}

/** A custom action as the server and the services route see it. */
export interface ServiceAction {
  readonly name: string;
  readonly input: JsonSchema | undefined;
  readonly output: JsonSchema | undefined;
  readonly route: ActionRoute;
}

export type ServiceActionCall<TInput, TOutput> = (call?: { input?: TInput; ctx?: Context }) => Promise<Awaited<TOutput>>;

export class Service<TDb = any> {
  readonly name: string;
  readonly db: TDb;
  /** @internal */
  readonly dialect: Dialect;
  /** The database bounds in force (issue 32), or null for SQLite. */
  readonly timeouts: Readonly<EffectiveTimeouts> | null;
  readonly resources: Resource<any>[] = [];
  readonly actions: ServiceAction[] = [];

  /** @internal Use `defineService`. */
  constructor(declaration: ServiceDeclaration<TDb>) {
    this.name = checkName('service', declaration?.name);
    const dialect = dialectOfDatabase(declaration.db);
    if (dialect === undefined) {
      throw new SetupError(`${this.name}: db must be a drizzle database from drizzle-orm/better-sqlite3, drizzle-orm/mysql2 or drizzle-orm/node-postgres`);
    }
    this.db = declaration.db;
    this.dialect = dialect;
    this.timeouts = dialect.applyTimeouts(declaration.db, checkTimeouts(this.name, declaration.timeouts));
  }

  /**
   * Declares a resource: a named table with its primary key column.
   *
   * @example
   * const notes = blog.resource({ name: 'notes', table: notesTable, id: notesTable.id });
   */
  resource<TTable extends Table>(declaration: ResourceDeclaration<TTable>): Resource<TTable> {
    const resource = new Resource(this, declaration);
    if (this.resources.some((existing) => existing.name === resource.name)) throw new SetupError(`${this.name}: resource "${resource.name}" is declared twice`);
    this.resources.push(resource);
    return resource;
  }

  /**
   * Declares a custom action, mounted at `POST ${prefix}/<service>/<name>`, answering 200 with the handler's result.
   * Returns the action, callable in-process with `{ input, ctx }`.
   *
   * @example
   * const stats = blog.action('stats', { handler: async ({ db }) => ({ ok: true }) });
   */
  action<TInput = any, TOutput = unknown>(name: string, definition: ServiceActionDefinition<TDb, TInput, TOutput>): ServiceActionCall<TInput, TOutput> {
    checkName('action', name, this.name);
    if (this.actions.some((existing) => existing.name === name)) throw new SetupError(`${this.name}: action "${name}" is declared twice`);
    if (typeof definition?.handler !== 'function') throw new SetupError(`${this.name}.${name}: handler must be a function`);
    const validators = definition.input === undefined ? null : new LazyValidators({ input: definition.input });
    // A bad schema is a setup error at declaration; a bundle (no code generation) checked it at build time.
    if (validators !== null && canGenerateCode) {
      try {
        validators.get('input');
      } catch (error) {
        throw new SetupError(`${this.name}.${name}: input is not a valid JSON Schema: ${(error as Error).message}`);
      }
    }
    const db = this.db;
    const invoke = async (input: unknown, ctx: Context): Promise<unknown> => {
      try {
        return await definition.handler({ input: input as TInput, ctx, db });
      } catch (error) {
        throw error instanceof TesseraError ? error : (this.dialect.mapDriverError(error) ?? new TesseraError('INTERNAL_ERROR', undefined, undefined, { cause: error }));
      }
    };
    const run = async (input: unknown, ctx: Context): Promise<unknown> => {
      if (validators !== null) assertValid(validators.get('input'), input);
      return invoke(input, ctx);
    };
    const source: ServiceActionSource = { kind: 'service-action', label: `${this.name}.${name}`, input: definition.input, validators, invoke };
    const route: ActionRoute = { action: name, method: 'POST', path: `/${this.name}/${name}`, status: 200, input: 'body', parseId: idParserFor({}), run, source };
    this.actions.push({ name, input: definition.input, output: definition.output, route });
    return (call) => run(call?.input, call?.ctx ?? {}) as Promise<Awaited<TOutput>>;
  }
}

/**
 * Declares a service and registers it in the global registry.
 *
 * @example
 * const blog = defineService({ name: 'blog', db: drizzle(new Database('blog.db')) });
 */
export function defineService<TDb>(declaration: ServiceDeclaration<TDb>): Service<TDb> {
  const service = new Service(declaration);
  registerService(service);
  return service;
}
