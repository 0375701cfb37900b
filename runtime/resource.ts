// A resource: a named table of a service, with the actions its plugin attaches.
import { getTableColumns, getTableName, type Column, type Table } from 'drizzle-orm';
import { tableMatchesDialect } from './dialects';
import { SetupError } from './errors';
import { checkName } from './names';
import type { ActionRoute } from './route';
import type { CrudActions } from './crud/crud-plugin';
import type { CrudRuntime } from './model/crud-runtime';
import type { Service } from './service';

export interface ResourceDeclaration<TTable extends Table> {
  name: string;
  table: TTable;
  /** The table's primary key column. */
  id: Column;
}

/** What `resource.use()` accepts: a plugin that attaches actions and routes to the resource. */
export interface ResourcePlugin<TActions> {
  /** @internal */
  install(resource: Resource<any>): TActions;
}

export class Resource<TTable extends Table = Table> {
  readonly name: string;
  readonly table: TTable;
  readonly id: Column;
  readonly service: Service;
  /** The table's property name for the primary key (`id`). */
  readonly idKey: string;
  #routes: ActionRoute[] = [];
  #crudRuntime: CrudRuntime | null = null;
  #actions: string[] = [];
  #hasPlugin = false;

  /** @internal Use `service.resource(...)`. */
  constructor(service: Service, declaration: ResourceDeclaration<TTable>) {
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
  use(plugin: ResourcePlugin<CrudActions<any>>): this & CrudActions<TTable> {
    if (this.#hasPlugin) throw new SetupError(`${this.label}: a resource takes one crud plugin`);
    this.#hasPlugin = true;
    const actions = plugin.install(this);
    return Object.assign(this, actions) as this & CrudActions<TTable>;
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
