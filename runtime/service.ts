// A service and its resources: a service is a name, a drizzle database, its resources and its custom actions; a
// resource is a named table of a service, with the actions its plugin attaches. One file, because each names the
// other (`service.resources`, `resource.service`): apart, the two files would import each other.
import { getTableColumns, getTableName, type Column, type Table } from 'drizzle-orm';
import { dialectOfDatabase, tableMatchesDialect, type Dialect } from './dialects';
import { SetupError } from './errors';
import type { Context } from './model/context';
import type { CrudActionsOf, CrudTypes } from './model/crud-actions';
import type { DrizzleRelationsOf } from './model/include-types';
import type { CrudRuntime } from './model/crud-runtime';
import { checkTimeouts, type DatabaseTimeouts, type EffectiveTimeouts } from './dialects/database-timeouts';
import { databasesOf } from './dialects/read-replicas';
import { checkName } from './names';
import type { ActionRoute } from './route';
import { serviceAction, type ServiceAction, type ServiceActionCall, type ServiceActionDefinition } from './service-action';

export type { ServiceAction, ServiceActionCall, ServiceActionDefinition } from './service-action';

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

/**
 * A service: its database, its resources and custom actions. `TContext` types `ctx` in all of them: the registered
 * `Context` unless the service was declared with `defineService<Ctx>()(…)`.
 */
export class Service<TDb = any, TContext = Context> {
  readonly name: string;
  readonly db: TDb;
  /** @internal */
  readonly dialect: Dialect;
  /** The database bounds in force (issue 32), or null for SQLite. */
  readonly timeouts: Readonly<EffectiveTimeouts> | null;
  readonly resources: Resource<any, any>[] = [];
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
    // The same bounds on every client behind the db: a withReplicas database's primary and each replica.
    const given = checkTimeouts(this.name, declaration.timeouts);
    const [primary, ...replicas] = databasesOf(declaration.db);
    this.timeouts = dialect.applyTimeouts(primary, given);
    for (const replica of replicas) dialect.applyTimeouts(replica, given);
  }

  /**
   * Declares a resource: a named table with its primary key column.
   *
   * @example
   * const notes = blog.resource({ name: 'notes', table: notesTable, id: notesTable.id });
   */
  resource<TTable extends Table, TId extends Column = Column>(declaration: ResourceDeclaration<TTable, TId>): Resource<TTable, TContext, TId, DrizzleRelationsOf<TDb, TTable>> {
    const resource = new Resource<TTable, TContext, TId, DrizzleRelationsOf<TDb, TTable>>(this, declaration);
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
  action<TInput = any, TOutput = unknown>(name: string, definition: ServiceActionDefinition<TDb, TInput, TOutput, TContext>): ServiceActionCall<TInput, TOutput, TContext> {
    checkName('action', name, this.name);
    if (this.actions.some((existing) => existing.name === name)) throw new SetupError(`${this.name}: action "${name}" is declared twice`);
    const { action, call } = serviceAction(this, name, definition);
    this.actions.push(action);
    return call;
  }
}

export interface ResourceDeclaration<TTable extends Table, TId extends Column = Column> {
  name: string;
  table: TTable;
  /** The table's primary key column: types the `id` actions take. */
  id: TId;
}

/** Where a plugin carries its types; never set at run time. */
declare const pluginTypes: unique symbol;

/**
 * What `resource.use()` accepts: a plugin that attaches actions and routes to the resource. Its types (the table
 * and context it was made for, as parameters, so a plugin for any table fits every table; its `fields` and
 * `operations` as written) type the actions `use` returns.
 */
export interface ResourcePlugin<TTable extends Table = any, TContext = any, TFields = unknown, TOperations = unknown, TRelations = unknown> {
  /** @internal */
  install(resource: Resource<any, any>): object;
  /** @internal Types only. */
  readonly [pluginTypes]?: {
    table: (table: TTable) => void;
    ctx: (ctx: TContext) => void;
    fields: TFields;
    operations: TOperations;
    relations: TRelations;
  };
}

/**
 * A resource: a named table of a service. `TId` (the key column) types the `id` its actions take, `TDrizzleRelations`
 * (the table's Drizzle `relations()` in the db's schema) which of its relations are to-one or to-many.
 */
export class Resource<TTable extends Table = Table, TContext = Context, TId extends Column = Column, TDrizzleRelations = unknown> {
  readonly name: string;
  readonly table: TTable;
  readonly id: TId;
  readonly service: Service<any, any>;
  /** The table's property name for the primary key (`id`). */
  readonly idKey: string;
  #routes: ActionRoute[] = [];
  #crudRuntime: CrudRuntime | null = null;
  #actions: string[] = [];
  #hasPlugin = false;

  /** @internal Use `service.resource(...)`. */
  constructor(service: Service<any, any>, declaration: ResourceDeclaration<TTable, TId>) {
    const where = `${service.name}.${String(declaration?.name)}`;
    this.name = checkName('resource', declaration?.name, service.name);
    if (!tableMatchesDialect(declaration.table, service.dialect)) {
      throw new SetupError(`${where}: table is not a ${service.dialect.name} table, but the service's database is ${service.dialect.name}`);
    }
    const columns = getTableColumns(declaration.table);
    const idKey = Object.keys(columns).find((key) => columns[key] === declaration.id);
    if (idKey === undefined) throw new SetupError(`${where}: id is not a column of table "${getTableName(declaration.table)}"`);
    if (!declaration.id.primary) throw new SetupError(`${where}: id must be the primary key column of table "${getTableName(declaration.table)}"`);
    this.service = service;
    this.table = declaration.table;
    this.id = declaration.id;
    this.idKey = idKey;
  }

  /** `<service>.<resource>`, as setup errors name it. */
  get label(): string {
    return `${this.service.name}.${this.name}`;
  }

  /** The action names, `notes.list` …, in CONTRACT §2 order. */
  get actions(): readonly string[] {
    return this.#actions;
  }

  /** The HTTP routes, paths relative to the server prefix. */
  get routes(): readonly ActionRoute[] {
    return this.#routes;
  }

  /**
   * Attaches a plugin and returns the resource with its actions.
   *
   * @example
   * const notes = blog.resource({ name: 'notes', table: notesTable, id: notesTable.id }).use(crud({ access: 'public' }));
   */
  use<TFields, TOperations, TRelations>(
    plugin: ResourcePlugin<TTable, TContext, TFields, TOperations, TRelations>,
  ): this & CrudActionsOf<CrudTypes<TTable, TContext, TFields, TOperations, TRelations, TId, TDrizzleRelations>> {
    if (this.#hasPlugin) throw new SetupError(`${this.label}: a resource takes one crud plugin`);
    this.#hasPlugin = true;
    const actions = plugin.install(this);
    return Object.assign(this, actions) as this & CrudActionsOf<CrudTypes<TTable, TContext, TFields, TOperations, TRelations, TId, TDrizzleRelations>>;
  }

  /** @internal The crud plugin's model of this resource (policy, validators), once the plugin is attached. */
  get crudRuntime(): CrudRuntime | null {
    return this.#crudRuntime;
  }

  /** @internal Called by the crud plugin. */
  attachCrudRuntime(runtime: CrudRuntime): void {
    this.#crudRuntime = runtime;
  }

  /** @internal Called by plugins. */
  addAction(name: string, route: ActionRoute | null): void {
    this.#actions.push(name);
    if (route !== null) this.#routes.push(route);
  }
}
