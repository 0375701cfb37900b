// Included rows inside the parent's own statement (CONTRACT §9), where the dialect builds them as JSON
// (dialects/nested-rows.ts: PostgreSQL): one statement per call whatever the includes and their depth, in place of
// one per level (include-statements.ts). Each include becomes one select field of the parent's statement, decoded
// into the related rows; the related where, scope, order and limit stay inside its level. The statement comes from
// the cache when spec §8 allows it for the parent and for every related resource (no scope, no application defaults,
// no relation filter inside), its where values and limits bound as placeholders named per level.
import { and, eq, getTableName, sql, type SQL, type Table } from 'drizzle-orm';
import type { AnyDatabase, DbRow } from '../dialects/dialect';
import type { NestedRows } from '../dialects/nested-rows';
import type { FieldModel } from '../model/field-policy';
import type { IncludeNode } from './include-statements';
import { compileOrderBy } from './order-by';
import { cacheFor, type ResourcePlan, type Scope } from './resource-plan';
import { orderKey, selectKey, wherePlaceholderName, wherePlaceholders, whereShape } from './statement-key';
import type { NestedSelection } from './nested-selection';
import { compileWhere } from './where';

export type { NestedSelection } from './nested-selection';

type Decode = (value: unknown) => unknown;

/**
 * Whether every level can go inside the statement: the same database, a table other than the enclosing level's
 * (whose name the level would hide from its own join), and columns the dialect carries faithfully.
 */
function fits(nested: NestedRows, db: AnyDatabase, table: Table, nodes: readonly IncludeNode[]): boolean {
  for (const node of nodes) {
    if (node.plan.db !== db || getTableName(node.plan.table) === getTableName(table)) return false;
    if (node.readFields.length + node.children.length > nested.maxValues) return false;
    if (!node.readFields.every((field) => nested.carries(field.column))) return false;
    if (!fits(nested, db, node.plan.table, node.children)) return false;
  }
  return true;
}

function cacheable(nodes: readonly IncludeNode[]): boolean {
  return nodes.every((node) => cacheFor(node.plan, node.condition) !== null && cacheable(node.children));
}

/** The placeholder prefix of the n-th level, numbered depth first (a level before its nested ones). */
const levelPrefix = (level: number) => `i${level}`;

/** A cached statement's shape of the levels (the key) and its placeholder values, without building any SQL. */
function shapeOf(nodes: readonly IncludeNode[], values: Record<string, unknown>, counter: { level: number }): string {
  let key = '';
  for (const node of nodes) {
    const { plan, relation } = node;
    const prefix = levelPrefix(counter.level++);
    const shape = whereShape(node.where, plan.filterColumns, plan.dialect);
    for (let index = 0; index < shape.values.length; index++) values[wherePlaceholderName(index, `${prefix}p`)] = shape.values[index];
    if (relation.isMany) values[`${prefix}l`] = node.limit;
    key += `{${relation.name.length}:${relation.name}|${selectKey(node.readFields, plan.readable)}|${shape.key}|${orderKey(node.orderBy)}${shapeOf(node.children, values, counter)}}`;
  }
  return key;
}

/** One level's expression and the decoder of its value; its nested levels are numbered after it. */
function levelOf(nested: NestedRows, isCached: boolean, node: IncludeNode, counter: { level: number }): { expression: SQL; decode: Decode } {
  const { plan, relation } = node;
  const prefix = levelPrefix(counter.level++);
  const where = isCached ? wherePlaceholders(node.where, plan.filterColumns, plan.dialect, `${prefix}p`) : and(compileWhere(node.where, plan.filterColumns, plan.dialect), node.condition);
  const values = node.readFields.map((field) => nested.value(field.column));
  const children = node.children.map((child) => levelOf(nested, isCached, child, counter));
  for (const child of children) values.push(child.expression);
  const level = { table: plan.table, values, condition: and(eq(relation.targetColumn, relation.sourceColumn), where)!, order: compileOrderBy(node.orderBy, plan.columns, plan.pkKey) };
  const decodeRow = rowDecoder(nested, node, children);
  if (!relation.isMany) return { expression: nested.toOne(level), decode: decodeRow };
  const expression = nested.toMany(level, isCached ? sql`${sql.placeholder(`${prefix}l`)}` : sql`${node.limit}`);
  return { expression, decode: (value) => (value as unknown[]).map(decodeRow) };
}

/**
 * Whether a level's rows, and its nested levels', need no scrub: its decoder then gives them in their answer form
 * (row-serializer.ts encodeRow's, nested levels set), which includes.ts attachNested takes as they are.
 */
export function inAnswerForm(node: IncludeNode): boolean {
  return node.fields.every((field) => field.scrub === null) && node.children.every(inAnswerForm);
}

/** A carried value's decoder, then its field's JSON form (`codec`), composed once; null when the value stays as it is. */
function valueDecoder(decode: Decode | null, codec: FieldModel['codec']): Decode | null {
  if (codec === null) return decode;
  return decode === null ? (value) => codec.encode(value) : (value) => codec.encode(decode(value));
}

/**
 * A level's JSON row (its fields' values, then its nested levels') as a database row, or as its answer row where
 * inAnswerForm; a null to-one value stays null.
 */
function rowDecoder(nested: NestedRows, node: IncludeNode, children: readonly { decode: Decode }[]): Decode {
  const keys = node.readFields.map((field) => field.key);
  const answerForm = inAnswerForm(node);
  const decoders = node.readFields.map((field) => valueDecoder(nested.decoder(field.column), answerForm ? field.codec : null));
  const childKeys = node.children.map((child) => child.relation.name);
  return (value) => {
    if (value === null) return null;
    const values = value as unknown[];
    const row: DbRow = {};
    for (let index = 0; index < keys.length; index++) {
      const carried = values[index];
      const decode = decoders[index];
      row[keys[index]] = carried === null || decode === null ? carried : decode(carried);
    }
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
  const isCached = cacheFor(rt, scope) !== null && cacheable(includes);
  const values: Record<string, unknown> = {};
  const key = isCached ? shapeOf(includes, values, { level: 0 }) : '';
  const fields = () => {
    const counter = { level: 0 };
    const selection: Record<string, SQL> = {};
    for (const node of includes) {
      const { expression, decode } = levelOf(nested, isCached, node, counter);
      // Wrapped: Drizzle strips the table from columns at the top of a single-table select's SQL fields.
      selection[node.relation.name] = sql`${expression}`.mapWith(decode);
    }
    return selection;
  };
  return { fields, key, values, isCached };
}
