// Included rows inside the parent's own statement (CONTRACT §9), where the dialect builds them as JSON
// (dialects/nested-rows.ts: PostgreSQL): one statement per call whatever the includes and their depth, in place of
// one per level (include-statements.ts). Each include becomes one select field of the parent's statement, decoded
// into the related rows; the related where, scope, order and limit stay inside its level. The statement comes from
// the cache when spec §8 allows it for the parent and for every related resource (no scope, no application defaults,
// no relation filter inside), its where values and limits bound as placeholders named per level.
import { and, eq, getTableName, sql, type SQL, type Table } from 'drizzle-orm';
import type { AnyDatabase, DbRow } from '../dialects/dialect';
import type { NestedRows } from '../dialects/nested-rows';
import type { IncludeNode } from './include-statements';
import { compileOrderBy } from './order-by';
import { cacheFor, type ResourcePlan, type Scope } from './resource-plan';
import { orderKey, selectKey, wherePlaceholderName, wherePlaceholders, whereShape } from './statement-key';
import { compileWhere } from './where';

/** The includes of one call as select fields of the parent's statement. */
export interface NestedSelection {
  /** One field per include, named after the relation: DbRow | null (to-one) or DbRow[] (to-many), nested ones inside. */
  readonly fields: Record<string, SQL>;
  /** The includes' shape, appended to the parent statement's key (spec §8 rule 1). */
  readonly key: string;
  /** The placeholder values of the includes' where and limits. */
  readonly values: Record<string, unknown>;
  /** Whether the statement may come from the cache (spec §8 rules 2 and 3, for the parent and each related resource). */
  readonly isCached: boolean;
}

type Decode = (value: unknown) => unknown;

/**
 * Whether every level can go inside the statement: the same database, a table other than the enclosing level's
 * (whose name the level would hide from its own join), and columns the dialect carries faithfully.
 */
function fits(nested: NestedRows, db: AnyDatabase, table: Table, nodes: readonly IncludeNode[]): boolean {
  for (const node of nodes) {
    if (node.plan.db !== db || getTableName(node.plan.table) === getTableName(table)) return false;
    if (node.fields.length + node.children.length > nested.maxValues) return false;
    if (node.fields.some((field) => nested.value(field.column) === null)) return false;
    if (!fits(nested, db, node.plan.table, node.children)) return false;
  }
  return true;
}

function cacheable(nodes: readonly IncludeNode[]): boolean {
  return nodes.every((node) => cacheFor(node.plan, node.condition) !== null && cacheable(node.children));
}

class SelectionBuilder {
  levels = 0;
  key = '';
  readonly values: Record<string, unknown> = {};
  constructor(
    readonly nested: NestedRows,
    readonly isCached: boolean,
  ) {}

  /** One level's expression and the decoder of its value; nested levels are numbered after it. */
  level(node: IncludeNode): { expression: SQL; decode: Decode } {
    const { plan, relation } = node;
    const prefix = `i${this.levels++}`;
    let condition: SQL | undefined;
    if (this.isCached) {
      const shape = whereShape(node.where, plan.filterColumns, plan.dialect);
      for (let index = 0; index < shape.values.length; index++) this.values[wherePlaceholderName(index, `${prefix}p`)] = shape.values[index];
      condition = wherePlaceholders(node.where, plan.filterColumns, plan.dialect, `${prefix}p`);
      this.key += `{${relation.name.length}:${relation.name}|${selectKey(node.fields, plan.readable)}|${shape.key}|${orderKey(node.orderBy)}`;
    } else {
      condition = and(compileWhere(node.where, plan.filterColumns, plan.dialect), node.condition);
    }
    const values = node.fields.map((field) => this.nested.value(field.column)!);
    const children = node.children.map((child) => this.level(child));
    for (const child of children) values.push(child.expression);
    if (this.isCached) this.key += '}';
    const level = { table: plan.table, values, condition: and(eq(relation.targetColumn, relation.sourceColumn), condition)!, order: compileOrderBy(node.orderBy, plan.columns, plan.pkKey) };
    if (!relation.isMany) return { expression: this.nested.toOne(level), decode: rowDecoder(this.nested, node, children) };
    const limitName = `${prefix}l`;
    this.values[limitName] = node.limit;
    const expression = this.nested.toMany(level, this.isCached ? sql`${sql.placeholder(limitName)}` : sql`${node.limit}`);
    const decodeRow = rowDecoder(this.nested, node, children);
    return { expression, decode: (value) => (value as unknown[]).map(decodeRow) };
  }
}

/** A level's JSON row (its fields' values, then its nested levels') as a database row; a null to-one value stays null. */
function rowDecoder(nested: NestedRows, node: IncludeNode, children: readonly { decode: Decode }[]): Decode {
  const keys = node.fields.map((field) => field.key);
  const decoders = node.fields.map((field) => nested.decoder(field.column));
  const childKeys = node.children.map((child) => child.relation.name);
  return (value) => {
    if (value === null) return null;
    const values = value as unknown[];
    const row: DbRow = {};
    for (let index = 0; index < keys.length; index++) row[keys[index]] = values[index] === null ? null : decoders[index](values[index]);
    for (let index = 0; index < childKeys.length; index++) row[childKeys[index]] = children[index].decode(values[keys.length + index]);
    return row;
  };
}

/**
 * The includes of a read as fields of its own statement, or null where they take one statement per level: a dialect
 * without nested rows, or a level that does not fit (another database, a self-relation, a column type not carried).
 */
export function nestedSelection(rt: ResourcePlan, includes: readonly IncludeNode[], scope: Scope): NestedSelection | null {
  const nested = rt.dialect.nestedRows;
  if (nested === undefined || includes.length === 0 || !fits(nested, rt.db, rt.table, includes)) return null;
  const builder = new SelectionBuilder(nested, cacheFor(rt, scope) !== null && cacheable(includes));
  const fields: Record<string, SQL> = {};
  for (const node of includes) {
    const { expression, decode } = builder.level(node);
    // Wrapped: Drizzle strips the table from columns at the top of a single-table select's SQL fields.
    fields[node.relation.name] = sql`${expression}`.mapWith(decode);
  }
  return { fields, key: builder.key, values: builder.values, isCached: builder.isCached };
}
